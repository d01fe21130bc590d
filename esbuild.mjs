// Bundles the CLI (and, once their sources exist, the language server and the VS Code client)
// into dist/*.cjs. Run by `npm run build` and by `prepare` (so `npm ci` builds it).
// Usage: node esbuild.mjs [--watch] [--minify] [--only cli,server,client] [--outdir DIR]
// (--outdir builds elsewhere than dist/, e.g. for tests that must not race with other builds.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { asciiBundle } from './scripts/asciiBundle.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');
/** The value after a `--name` argument, if any. */
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const only = arg('--only')?.split(',');
const outdir = arg('--outdir');

/**
 * recheck starts its own native binary (recheck-linux-x64, …) or jar from node_modules, found
 * relative to its own files: it must stay a runtime dependency, not be bundled.
 */
const RECHECK = ['recheck', 'recheck-*'];
/** Cedar's engine reads its .wasm file beside its own JavaScript: a runtime dependency too (node/cedarEngine.ts). */
const CEDAR = ['@cedar-policy/cedar-wasm', '@cedar-policy/cedar-wasm/*'];
/**
 * Z3 (`z3-solver`, for `prove` only: node/z3Solver.ts) is an Emscripten module that reads its .wasm
 * (35 MB) and starts its threads from its own files: a runtime dependency, loaded on first use.
 */
const Z3 = ['z3-solver'];

/**
 * Libraries a command needs only sometimes, each bundled once into a file of its own
 * (dist/vendor-NAME.cjs) that the bundles listed in `users` require when they first use it, so
 * that `agents-md lint` or `--help` neither reads nor compiles them (docs/performance.md,
 * "Start-up"). `modules`: what our code imports (each becomes export `m<i>` of the vendor
 * file). `lazy`: the functions its importer calls, for a library imported by modules that every
 * command loads (the tokenizer: a rule counts tokens only when the contract sets a budget); the
 * other vendors are imported only by modules our code reaches through `await import()`.
 */
const VENDORS = [
  {
    name: 'tokenizer',
    users: ['cli', 'cli-lint-worker', 'server', 'server-workspace-worker', 'server-token-worker'],
    modules: ['gpt-tokenizer/encoding/o200k_base'],
    lazy: { 'gpt-tokenizer/encoding/o200k_base': ['countTokens'] },
  },
  {
    name: 'otel',
    users: ['cli', 'server'],
    modules: ['@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/otlp-transformer', '@opentelemetry/resources', '@opentelemetry/semantic-conventions', 'protobufjs'],
  },
  { name: 'width', users: ['cli', 'cli-lint-worker', 'server'], modules: ['string-width'], lazy: { 'string-width': ['default'] } },
  {
    name: 'mcp',
    users: ['cli'],
    modules: ['@modelcontextprotocol/sdk/server/mcp.js', '@modelcontextprotocol/sdk/server/stdio.js', 'zod', '@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/stdio.js', '@modelcontextprotocol/sdk/client/streamableHttp.js'],
  },
];

/** Resolves the vendors' modules, in the bundles that use them, to a require of the vendor file. */
function vendorPlugin(entryName) {
  const mine = VENDORS.filter((v) => v.users.includes(entryName));
  const byModule = new Map(mine.flatMap((v) => v.modules.map((m, i) => [m, { vendor: v, index: i }])));
  return {
    name: 'vendor',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'vendor' || !byModule.has(args.path)) return undefined;
        return { path: args.path, namespace: 'vendor' };
      });
      build.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => {
        const { vendor, index } = byModule.get(args.path);
        const file = JSON.stringify(`./vendor-${vendor.name}.cjs`);
        const names = vendor.lazy?.[args.path];
        if (!names) return { contents: `module.exports = require(${file}).m${index};`, loader: 'js' };
        const load = `let loaded;\nconst load = () => (loaded ??= require(${file}).m${index});\n`;
        const exported = (n) => (n === 'default' ? 'export default function ' : `export function ${n}`);
        return { contents: load + names.map((n) => `${exported(n)}(...args) { return load().${n}(...args); }\n`).join(''), loader: 'js' };
      });
      // The vendor file stays a file of its own, found beside the bundle at run time.
      build.onResolve({ filter: /^\.\/vendor-[a-z]+\.cjs$/ }, (args) => (args.namespace === 'vendor' ? { path: args.path, external: true } : undefined));
    },
  };
}

/**
 * Node's modules that a CLI command needs only sometimes, each 4 to 7 ms to load (a process
 * started: commander loads child_process for subcommands we do not have; worker threads for many
 * files; a timer's promise for a model's retries): in the CLI's bundles they load on first use.
 * Each becomes a module of getters, one per export, named at build time.
 */
const LAZY_BUILTINS = new Set(['child_process', 'worker_threads', 'timers/promises']);

function lazyBuiltinPlugin() {
  const load = createRequire(import.meta.url);
  return {
    name: 'lazy-builtin',
    setup(build) {
      build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (!LAZY_BUILTINS.has(name) || !builtinModules.includes(name)) return undefined;
        return args.namespace === 'lazy-builtin' ? { path: `node:${name}`, external: true } : { path: name, namespace: 'lazy-builtin' };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
        const id = JSON.stringify(`node:${args.path}`);
        const getters = Object.keys(load(`node:${args.path}`)).map((n) => `Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: () => load()[${JSON.stringify(n)}] });`);
        return { contents: [`let loaded;`, `const load = () => (loaded ??= require(${id}));`, ...getters].join('\n'), loader: 'js' };
      });
    },
  };
}

/**
 * Changes to a dependency's code in the CLI's bundles, each checked to apply: the build fails when
 * a new version of the dependency no longer has the text, so that the change is looked at again.
 */
const PATCHES = [
  {
    // fdir (under tinyglobby) requires picomatch from node_modules when it loads, for its own
    // glob option, which tinyglobby does not use (it matches with its own picomatch): 4-6 ms a run.
    file: /[\\/]fdir[\\/]dist[\\/]index\.mjs$/,
    from: 'try {\n\t__require.resolve("picomatch");\n\tpm = __require("picomatch");\n} catch {}',
    to: '',
  },
];

function patchPlugin() {
  return {
    name: 'patch',
    setup(build) {
      for (const { file, from, to } of PATCHES) {
        build.onLoad({ filter: file }, (args) => {
          const text = readFileSync(args.path, 'utf8');
          if (!text.includes(from)) return { errors: [{ text: `esbuild.mjs PATCHES: ${args.path} no longer holds the text to change` }] };
          return { contents: text.replace(from, to), loader: 'js' };
        });
      }
    },
  };
}

/**
 * Writes a build's files itself, the bundle in ASCII only (scripts/asciiBundle.mjs), its source
 * map moved to match: for the entries built with `write: false`.
 */
function asciiPlugin() {
  return {
    name: 'ascii',
    setup(build) {
      build.onEnd((result) => {
        const files = result.outputFiles ?? [];
        const byPath = new Map(files.map((f) => [f.path, f]));
        for (const f of files.filter((x) => !x.path.endsWith('.map'))) {
          const map = byPath.get(`${f.path}.map`);
          const out = asciiBundle(f.text, map?.text);
          mkdirSync(dirname(f.path), { recursive: true });
          writeFileSync(f.path, out.code);
          if (map && out.map !== undefined) writeFileSync(map.path, out.map);
        }
      });
    },
  };
}

/**
 * `compact`: written without whitespace or comments (names and source map kept) and in ASCII
 * only, for the bundles every CLI run reads and compiles: cli.cjs goes from 5.8 to 4.2 MB, is read
 * as Latin-1, and a lint of the 300-line sample starts sooner (docs/performance.md, "Start-up").
 * @type {{ name: string, entry: string, outfile: string, external: string[], sourcemap?: boolean, compact?: boolean }[]}
 */
const ENTRIES = [
  { name: 'cli', entry: 'server/src/cli/main.ts', outfile: 'dist/cli.cjs', external: [...RECHECK, ...CEDAR, ...Z3], compact: true },
  // `agents-md --help` and `--version`, answered by bin/agents-md.cjs without loading cli.cjs.
  { name: 'cli-help', entry: 'server/src/cli/quickHelp.ts', outfile: 'dist/quickHelp.cjs', external: [] },
  // `agents-md lint` over many files runs this in worker threads beside cli.cjs (cli/lintPool.ts).
  { name: 'cli-lint-worker', entry: 'server/src/cli/lintWorker.ts', outfile: 'dist/lintWorker.cjs', external: [...RECHECK], compact: true },
  // The language server ships in the .vsix without node_modules. Its ReDoS worker bundles recheck,
  // which runs on its JavaScript backend there (its native binary cannot be found from a bundle);
  // the main server never loads recheck, so it leaves it out.
  { name: 'server', entry: 'server/src/server.ts', outfile: 'dist/server.cjs', external: [...RECHECK, ...Z3] },
  // The server's workspace pass over many contracts runs this in worker threads (lsp/workspacePool.ts).
  { name: 'server-workspace-worker', entry: 'server/src/lsp/workspaceWorker.ts', outfile: 'dist/workspaceWorker.cjs', external: [...RECHECK] },
  { name: 'server-regex-worker', entry: 'server/src/lsp/regexWorker.ts', outfile: 'dist/regexWorker.cjs', external: [] },
  // The server's token counts run in this child process (lsp/tokenWorker.ts), which loads the tokenizer's vendor file.
  { name: 'server-token-worker', entry: 'server/src/lsp/tokenWorker.ts', outfile: 'dist/tokenWorker.cjs', external: [] },
  { name: 'client', entry: 'client/src/extension.ts', outfile: 'dist/client.cjs', external: ['vscode'] },
  // The GitHub Action (action.yml) runs without node_modules: everything bundled; its lint does
  // not run the ReDoS analysis, so recheck is never loaded. dist/action.cjs is committed (a tag
  // must work as `uses:` without a build, docs/ci.md), so it has no source map: the unminified
  // bundle reads as it is, and test/actionBundle.test.ts checks that it is up to date.
  { name: 'action', entry: 'server/src/action/index.ts', outfile: 'dist/action.cjs', external: [...RECHECK], sourcemap: false },
];

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  minify,
  logLevel: 'warning',
  // recheck's worker backend calls require.resolve on a file the bundle does not have; bundled,
  // recheck falls back to its pure JavaScript backend, which is what the server uses.
  logOverride: { 'require-resolve-not-external': 'silent' },
  // Prefer packages' ESM builds: some UMD builds (jsonc-parser) require files esbuild cannot see.
  mainFields: ['module', 'main'],
  // ESM-only code in dependencies (fdir, under tinyglobby) calls createRequire(import.meta.url);
  // in a CommonJS bundle import.meta is empty, so point import.meta.url at the bundle itself.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // JSON imports (schemas, package.json) are bundled by esbuild's json loader.
  // Every `import()` becomes a require (each target is CommonJS or bundled): the CLI launcher runs
  // cli.cjs from V8's cached code, whose functions have no dynamic import callback (bin/agents-md.cjs).
  supported: { 'dynamic-import': false },
};

/** A vendor file is built with the first bundle asked for that uses it. */
const VENDOR_ENTRIES = VENDORS.map((v) => ({
  name: `vendor-${v.name}`,
  users: v.users,
  stdin: v.modules.map((m, i) => `export * as m${i} from ${JSON.stringify(m)};`).join('\n'),
  outfile: `dist/vendor-${v.name}.cjs`,
  external: [],
}));
const chosen = ENTRIES.filter((e) => existsSync(join(root, e.entry)) && (!only || only.some((o) => e.name === o || e.name.startsWith(`${o}-`))));
const present = [...chosen, ...VENDOR_ENTRIES.filter((v) => chosen.some((e) => v.users.includes(e.name)))].map((e) =>
  outdir ? { ...e, outfile: join(resolve(outdir), basename(e.outfile)) } : e,
);
const contexts = await Promise.all(
  present.map((e) =>
    esbuild.context({
      ...common,
      absWorkingDir: root,
      ...(e.stdin ? { stdin: { contents: e.stdin, resolveDir: root, sourcefile: `${e.name}.js` } } : { entryPoints: [e.entry] }),
      outfile: e.outfile,
      external: e.external,
      plugins: [vendorPlugin(e.name), ...(e.compact ? [lazyBuiltinPlugin(), patchPlugin(), asciiPlugin()] : [])],
      ...(e.sourcemap === undefined ? {} : { sourcemap: e.sourcemap }),
      ...(e.compact ? { minifyWhitespace: true, write: false } : {}),
    }),
  ),
);

if (present.length === 0) {
  console.log('esbuild: nothing to build');
} else if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  console.log(`esbuild: watching ${present.map((e) => e.name).join(', ')}`);
} else {
  try {
    const results = await Promise.all(contexts.map((c) => c.rebuild()));
    const errors = results.reduce((n, r) => n + r.errors.length, 0);
    if (errors > 0) process.exitCode = 1;
    else console.log(`esbuild: built ${present.map((e) => e.outfile).join(', ')}`);
  } catch {
    // esbuild has printed the errors (logLevel).
    process.exitCode = 1;
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
}
