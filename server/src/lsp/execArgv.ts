/**
 * The V8 flags the VS Code client starts the language server with (docs/performance.md, "Memory
 * given back"): a young generation of 1 MB semi-spaces instead of 16 (V8's default reserves
 * them whatever the heap holds) and an old-space ceiling of 512 MB, which also makes V8 grow the
 * heap less eagerly. With one 2,000-line contract open the server held 184 MB without them, 150
 * with them (bench/server.ts starts it the same way).
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=512'];
