/**
 * `agents-md prove <contract...>` (docs/prove.md): the obligations of each contract with their
 * witnesses, as text, JSON or SARIF; `--replay DIR` writes each witness as a snapshot `agents-md run`
 * plays. Exit 0 when no contract has a finding, 1 when one has, 2 when an input cannot be read.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type Command } from 'commander';
import { proveContract, proveResult, proveText, witnessData, witnessSnapshot, WITNESS_QUERY, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { loadContract } from '../node/dryRunHost.ts';
import { z3Solver } from '../node/z3Solver.ts';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { displayPath } from './report.ts';
import { guarded } from './guarded.ts';
import { EXIT, exitCodesHelp } from './exitCodes.ts';
import { render, withFormatOptions, type FormatOptions, type Formatters } from './format/registry.ts';
import { proveJson, proveSarif, type Proved } from './format/prove.ts';

interface ProveOptions extends FormatOptions {
  readonly replay?: string;
}

const PROVE_FORMATS: Formatters<readonly Proved[]> = {
  text: (all, c) => formatText(all, c.lang),
  json: (all, c) => proveJson(all, c.lang),
  sarif: (all, c) => proveSarif(all, c.cwd, c.lang),
};

const slash = (p: string) => p.split('\\').join('/');

/** The findings of one contract; with `replayDir`, each witness written as a snapshot beside the others. */
async function proveFile(path: string, cwd: string, replayDir: string | undefined): Promise<Proved> {
  const loaded = await loadContract(path, cwd);
  const file = displayPath(cwd, loaded.path);
  const findings = await proveContract(loaded.model, { solver: await z3Solver() });
  if (!replayDir) return { file, findings };
  const stem = slash(file).replace(/\.md$/i, '').replace(/[^\p{L}\p{N}_-]+/gu, '_');
  return {
    file,
    findings: findings.map((f, i) => {
      const target = join(replayDir, `${stem}.${f.obligation}.${i + 1}.snapshot.json`);
      const raw = witnessSnapshot(loaded.model, f, slash(relative(dirname(target), loaded.path)));
      if (!raw) return f;
      mkdirSync(replayDir, { recursive: true });
      writeFileAtomic(target, `${JSON.stringify(raw, null, 2)}\n`, {}, displayPath(cwd, target));
      return { ...f, snapshot: displayPath(cwd, target) };
    }),
  };
}

/** A finding's further lines, under its first. */
const indented = (s: string) => s.replace(/^/gm, '    ');

function formatText(all: readonly Proved[], lang: Lang): string {
  const lines: string[] = [];
  for (const p of all) {
    for (const f of p.findings) {
      lines.push(`${p.file}:${f.range.start.line + 1}:${f.range.start.character + 1}  ${f.obligation}  ${proveText(f.message, lang)}`, indented(proveResult(f, lang)));
      if (f.witness) lines.push(indented(format('prove.witness', { witness: JSON.stringify(witnessData(f.witness)) }, lang)));
      if (f.snapshot) lines.push(indented(format('prove.replay', { command: `agents-md run ${p.file} --snapshot ${f.snapshot} --query ${WITNESS_QUERY}` }, lang)));
    }
  }
  const count = all.reduce((n, p) => n + p.findings.length, 0);
  lines.push(format('prove.summary', { count, files: all.length }, lang));
  return `${lines.join('\n')}\n`;
}

export function registerProveCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  withFormatOptions(program.command('prove').description(t('cli.prove.description')).argument('<contracts...>', t('cli.prove.contracts')), PROVE_FORMATS, lang)
    .option('--replay <dir>', t('cli.prove.replay'))
    .addHelpText('after', exitCodesHelp('prove', lang))
    .action(
      guarded(setExitCode, lang, async (contracts: string[], options: ProveOptions) => {
        const cwd = process.cwd();
        const replayDir = options.replay ? resolve(cwd, options.replay) : undefined;
        const all: Proved[] = [];
        for (const c of contracts) all.push(await proveFile(resolve(cwd, c), cwd, replayDir));
        process.stdout.write(render(PROVE_FORMATS, options, all, { cwd, lang, color: false }));
        setExitCode(all.some((p) => p.findings.length > 0) ? EXIT.FAILED : EXIT.OK);
      }),
    );
}

