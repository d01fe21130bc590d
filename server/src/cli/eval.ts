/**
 * `agents-md eval [paths...]`: runs every query of every snapshot found, checks each against its
 * expectations, and reports the figures (success rate, average rounds, tokens,
 * human-intervention rate) and the path drift against the previous eval run found under
 * `.agents-md/runs/` (docs/cli.md, docs/dry-run.md "Eval"). The report is in the display
 * language, its columns aligned by display width; the JSON report is the same in every language.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { alignColumns, checkExpectation, evalFigures, format, type Lang, type ModelProvider, pathDrift, type QueryReport, runMessage, type SnapshotQuery } from '../service/index.ts';
import { globFiles } from '../node/nodeFileSystem.ts';
import { readRunJson, runsWith, slug } from '../node/runFolder.ts';
import { contractForSnapshot, executeQuery, InputError, loadContract, loadSnapshot, resourceReader, SNAPSHOT_EXCLUDES, SNAPSHOT_GLOBS, storedPath, type LoadedContract, createRunFolder } from '../node/dryRunHost.ts';
import { formatDiagnostics } from './snapshotReport.ts';
import { displayPath } from './report.ts';
import { cliModel, helpAfter, withColorOptions, withTrustOption } from './run.ts';
import { EXIT } from './exitCodes.ts';
import { guarded } from './guarded.ts';
import { errorLine, indented, progressLine, useColor } from './terminal.ts';
import { painter } from './format/text.ts';
import { junitXml } from './format/junit.ts';
import './messages.ts';


/** The name of eval run folders (`<stamp>-eval`), where the previous run for drift is looked for. */
const EVAL_RUN = 'eval';

interface EvalOptions {
  readonly root?: string;
  readonly json?: boolean;
  readonly format?: string;
  readonly color?: boolean;
  readonly trustEndpoint?: string[];
}

/** Snapshot files named by the arguments: files as given, directories searched with SNAPSHOT_GLOBS; `problems` in `lang`. */
async function findSnapshots(paths: readonly string[], cwd: string, lang: Lang): Promise<{ files: string[]; problems: string[] }> {
  const files = new Set<string>();
  const problems: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      problems.push(format('cli.files.missing', { arg: p }, lang));
      continue;
    }
    if (st.isDirectory()) for (const f of await globFiles(abs, SNAPSHOT_GLOBS, SNAPSHOT_EXCLUDES)) files.add(f);
    else files.add(abs);
  }
  return { files: [...files].sort(), problems };
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** A namer of trace files, unique within one eval even when two snapshot paths slug alike (`a/b/x`, `a-b/x`). */
function traceNamer(): (base: string) => string {
  const used = new Set<string>();
  return (base) => {
    let name = `${base}.jsonl`;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}.jsonl`;
    used.add(name);
    return name;
  };
}

async function evalCommand(paths: string[], o: EvalOptions, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  const uniqueTraceName = traceNamer();
  const cwd = process.cwd();
  const root = resolve(cwd, o.root ?? '.');
  const paint = painter(useColor(o.color));
  const t = (id: string, args: Readonly<Record<string, string | number>> = {}) => runMessage(id, args, lang);
  const err = (s: string) => process.stderr.write(`${s}\n`);
  const progress = Boolean(process.stderr.isTTY) && !o.json && (o.format ?? 'text') === 'text';
  const { files, problems } = await findSnapshots(paths.length > 0 ? paths : ['.'], cwd, lang);
  for (const p of problems) errorLine(p);
  let usage = problems.length > 0;
  if (files.length === 0) {
    errorLine(t('eval.no-snapshots', { paths: (paths.length > 0 ? paths : ['.']).join(', ') }));
    setExitCode(EXIT.USAGE);
    return;
  }

  // Read everything first, so that the progress counter knows the total.
  const work: { contract: LoadedContract; snapshot: Awaited<ReturnType<typeof loadSnapshot>>; file: (n: string) => string | undefined; model: (q: SnapshotQuery) => ModelProvider }[] = [];
  for (const f of files) {
    try {
      const first = await loadSnapshot(f, cwd);
      const contractPath = first.read.snapshot ? contractForSnapshot(f, first.read.snapshot) : undefined;
      if (!first.read.snapshot || !contractPath) {
        for (const l of formatDiagnostics(f, cwd, first.read.diagnostics, lang)) err(l);
        if (first.read.snapshot) errorLine(t('eval.no-contract', { file: displayPath(cwd, f) }));
        usage = true;
        continue;
      }
      const contract = await loadContract(contractPath, cwd);
      const snapshot = await loadSnapshot(f, cwd, contract.model);
      for (const l of formatDiagnostics(f, cwd, snapshot.read.diagnostics, lang)) err(l);
      if (!snapshot.read.snapshot) {
        usage = true;
        continue;
      }
      work.push({ contract, snapshot, file: await resourceReader(root, contract), model: await cliModel(root, contract.path, o.trustEndpoint) });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      errorLine(e.text(lang));
      usage = true;
    }
  }

  const previousRuns = runsWith(root, 'eval.json');
  const folder = createRunFolder(root, EVAL_RUN, cwd);
  const total = work.reduce((s, w) => s + w.snapshot.read.snapshot!.queries.length, 0);
  const reports: QueryReport[] = [];
  let done = 0;
  for (const w of work) {
    const snap = w.snapshot.read.snapshot!;
    const shown = displayPath(cwd, w.snapshot.path);
    const stored = storedPath(root, w.snapshot.path);
    for (const query of snap.queries) {
      if (progress) progressLine(t('run.progress', { done: done + 1, total, snapshot: shown, query: query.id }));
      const result = await executeQuery({ root, contract: w.contract, snapshot: { ...w.snapshot, read: { ...w.snapshot.read, snapshot: snap } }, query, file: w.file, provider: w.model(query), folder, traceName: uniqueTraceName(`${slug(stored)}--${slug(query.id)}`) });
      done++;
      const mismatches = checkExpectation(query.expect, result);
      const o = result.outcome;
      reports.push({
        key: `${stored}#${query.id}`,
        snapshot: shown,
        query: query.id,
        status: o.status,
        code: o.code,
        ...(o.protocol?.errorCode ? { errorCode: o.protocol.errorCode } : {}),
        steps: result.stats.steps,
        tokens: result.stats.tokens,
        humanDecisions: result.stats.humanDecisions,
        path: result.stats.path,
        mismatches,
        trace: storedPath(root, result.tracePath),
      });
    }
  }
  if (progress) progressLine('');

  const figures = evalFigures(reports);
  const previousId = previousRuns[previousRuns.length - 1];
  const previous = previousId ? (readRunJson(root, previousId, 'eval.json') as { queries?: QueryReport[] } | undefined) : undefined;
  const drift = previous?.queries ? pathDrift(reports, previous.queries) : undefined;
  folder.writeJson('eval.json', { run_id: folder.id, figures, ...(drift ? { drift: { previous: previousId, ...drift } } : {}), queries: reports });

  if (o.format === 'junit') {
    process.stdout.write(junitXml(folder.id, reports, (m) => t('eval.mismatch', { field: m.field, expected: m.expected, actual: m.actual })));
  } else if (o.json || o.format === 'json') {
    process.stdout.write(`${JSON.stringify({ run_id: folder.id, figures, drift: drift ? { previous: previousId, ...drift } : null, queries: reports }, null, 2)}\n`);
  } else {
    const out = (s: string) => process.stdout.write(`${s}\n`);
    // One row per query (mark, snapshot › query, status, code), aligned by display width; its mismatches under it.
    const rows = reports.map((r) => {
      const mark = r.mismatches.length === 0 ? paint('green', t('eval.pass')) : paint('red', t('eval.fail'));
      return [mark, `${r.snapshot} › ${r.query}`, runMessage(`status.${r.status}`, {}, lang), r.errorCode ? `${r.code} / ${r.errorCode}` : r.code];
    });
    if (rows.length > 0) alignColumns(rows).split('\n').forEach((row, i) => {
      out(row);
      for (const m of reports[i]!.mismatches) out(indented(t('eval.mismatch', { field: m.field, expected: m.expected, actual: m.actual }), 4));
    });
    out('');
    out(t('eval.summary', { passed: figures.passed, total: figures.total, failed: figures.total - figures.passed }));
    out(t('eval.figures', { successRate: percent(figures.successRate), rounds: figures.averageRounds.toFixed(2), tokens: figures.totalTokens, avgTokens: Math.round(figures.averageTokens), humanRate: percent(figures.humanInterventionRate) }));
    if (drift && previousId) {
      out(t('eval.drift', { previous: previousId, changed: drift.changed.length, compared: drift.compared, distance: drift.meanDistance.toFixed(3) }));
      for (const c of drift.changed) {
        const [snapshot, query] = [c.key.slice(0, c.key.lastIndexOf('#')), c.key.slice(c.key.lastIndexOf('#') + 1)];
        out(indented(t('eval.drift-query', { snapshot, query, before: c.before.join(' → '), after: c.after.join(' → ') }), 2));
      }
    } else out(t('eval.drift-none', { runs: displayPath(cwd, resolve(root, '.agents-md/runs')) }));
    out(t('eval.runs', { dir: displayPath(cwd, folder.dir) }));
  }
  setExitCode(usage ? EXIT.USAGE : figures.passed < figures.total ? EXIT.FAILED : EXIT.OK);
}

/** Registers `eval` on the program, its help and report in `lang`. */
export function registerEvalCommand(program: Command, setExitCode: (code: number) => void, lang: Lang = 'en'): void {
  const t = (id: string) => format(id, {}, lang);
  const command = program
    .command('eval')
    .description(t('cli.help.eval'))
    .usage(t('cli.help.eval.usage'))
    .argument('[paths...]', t('cli.help.eval.paths'))
    .option('--root <dir>', t('cli.help.eval.root'))
    .option('--json', t('cli.help.eval.json'))
    .addOption(new Option('--format <format>', t('cli.help.eval.format')).choices(['text', 'json', 'junit']));
  withColorOptions(withTrustOption(command, lang), lang)
    .addHelpText('after', helpAfter('cli.help.eval.exit-codes', lang))
    .action(guarded(setExitCode, lang, (paths: string[], options: EvalOptions) => evalCommand(paths, options, lang, setExitCode)));
}
