/**
 * The V8 flags the VS Code client starts the language server with (docs/performance.md, "What
 * the server holds with one large contract" and "The first keystrokes after opening"): a young
 * generation of 4 MB semi-spaces instead of 16 (V8's default reserves them whatever the heap
 * holds) and an old-space ceiling of 512 MB, which also makes V8 grow the heap less eagerly. With
 * one 2,065-line contract open the server holds about 138 MB at rest with them (1 MB
 * semi-spaces: 130 MB, and keystrokes collected more often). No inlining in the optimising
 * compiler: its compilations ran on the other core for the first few hundred keystrokes after
 * opening (about 4 s of CPU over 200 HITL edits); without inlining a HITL keystroke took 10–13 %
 * less CPU, the first diagnostics of the typing bench's contract 750–790 ms instead of 930–970,
 * and keystrokes after warm-up as long as with it. One V8 helper thread instead of four: on a
 * 2-core machine the four (concurrent marking, compilation) ran 7–9 ms per keystroke beside the
 * server's own thread and the client, and keystrokes waited for a core; with one, the typing
 * bench's keystrokes took 15–25 % less time at the median and the first diagnostics came sooner
 * (docs/performance.md, "One helper thread"). bench/server.ts and bench/typing.ts start it the
 * same way.
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=4', '--max-old-space-size=512', '--no-turbo-inlining', '--v8-pool-size=1'];
