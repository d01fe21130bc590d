/** The `--only a,b` option of the benchmarks (bench/all.ts), or undefined: run everything. */
export function onlyList(argv: readonly string[]): string[] | undefined {
  const i = argv.indexOf('--only');
  return i >= 0 ? (argv[i + 1] ?? '').split(',').filter(Boolean) : undefined;
}

/** Whether part `part` of script `script` runs under `--only`. */
export function selected(argv: readonly string[], script: string, part: string): boolean {
  const only = onlyList(argv);
  return !only || only.includes(script) || only.includes(`${script}:${part}`);
}
