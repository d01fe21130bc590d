/**
 * `agents-md report [paths...]`: the workspace report (docs/workspace.md) in text, JSON, Markdown
 * or self-contained HTML. Contracts are found and linted as `lint` does them (collectFiles,
 * lintFiles), so the cross-contract findings are the linter's; snapshots as node/reportSnapshots.ts
 * finds them.
 */
import { stat } from 'node:fs/promises';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { InputError } from '../node/inputError.ts';
import { z3Solver } from '../node/z3Solver.ts';
import { resolve } from 'node:path';
import { type Command } from 'commander';
import { buildReport, proveContract, proveSummary, withProduction, withProve, reportHtml, reportJson, reportMarkdown, reportText, type Lang, type WorkspaceReport } from '../service/index.ts';
import { format } from '../service/host.ts';
import { collectFiles } from './collectFiles.ts';
import { jobsOption, lintInWorkers, workerCount } from './lintPool.ts';
import { lintFiles, lintService } from './lintFiles.ts';
import { fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { diskSummaryStore } from '../node/summaryStore.ts';
import { reportSnapshots } from '../node/reportSnapshots.ts';
import { displayPath } from './report.ts';
import { gradeProduction } from './reportProduction.ts';
import { printReadStats } from './conformance.ts';
import { withColorOptions } from './options.ts';
import { errorLine, useColor } from './terminal.ts';
import { render, withFormatOptions, type FormatOptions, type Formatters } from './format/registry.ts';
import { EXIT, exitCodesHelp } from './exitCodes.ts';
import './messages.ts';

const REPORT_FORMATS: Formatters<WorkspaceReport> = {
  text: (r, c) => reportText(r, c.lang),
  json: (r, c) => reportJson(r, c.lang),
  markdown: (r, c) => reportMarkdown(r, c.lang),
  html: (r, c) => reportHtml(r, c.lang),
};

interface ReportOptions extends FormatOptions {
  readonly color?: boolean;
  readonly output?: string;
  readonly root?: string;
  /** Worker threads (docs/workspace.md, "Scale"); default one per core for many contracts. */
  readonly jobs?: number;
  /** Production traces (a file or folder) for the production column (docs/workspace.md). */
  readonly traces?: string;
  /** Prove each contract for the prove column (docs/prove.md). */
  readonly prove?: boolean;
}

async function runReport(paths: readonly string[], options: ReportOptions, lang: Lang): Promise<number> {
  const cwd = process.cwd();
  const root = resolve(cwd, options.root ?? '.');
  if (!(await stat(root).then((s) => s.isDirectory(), () => false))) {
    errorLine(format('cli.error.rootNotDirectory', { root: options.root ?? '.' }, lang));
    return EXIT.USAGE;
  }
  const store = diskSummaryStore(root);
  const service = lintService(root, false, store);
  const implicit = paths.length === 0;
  const collected = await collectFiles(implicit ? ['.'] : paths, { cwd, root, workspace: service.workspace, implicit, lang });
  const workers = workerCount(collected.files.length, options.jobs);
  const run = (await lintInWorkers(collected.files, workers, { root, cwd, lang, boundToRoot: false, withModel: true }, store)) ?? (await lintFiles(service, collected.files, (p) => displayPath(cwd, p), lang));
  store?.save();
  for (const note of collected.notes) errorLine(note);
  const problems = [...collected.problems, ...run.readErrors];
  for (const p of problems) errorLine(p);
  const configProblems = [...collected.configProblems, ...run.configProblems];
  for (const p of new Map(configProblems.map((c) => [`${c.uri}\0${c.message}`, c])).values()) {
    const path = uriToPath(p.uri);
    errorLine(format('cli.fileProblem', { file: path ? displayPath(cwd, path) : p.uri, problem: format(p.messageId, p.args, lang) }, lang));
  }

  const contracts = run.reports.filter((r) => r.model && r.model.kind !== 'freeform').map((r) => ({ uri: r.uri, path: displayPath(root, r.path), model: r.model!, diagnostics: r.diagnostics }));
  const { config } = await service.workspace.configFor(fileUri(resolve(root, 'AGENTS.md')));
  let report = buildReport(contracts, await reportSnapshots(root, new Set(contracts.map((c) => c.uri))), config.resourceRoots);
  if (collected.cut.length > 0) report = { ...report, walkCut: collected.cut };
  if (options.traces) {
    const graded = await gradeProduction(resolve(cwd, options.traces), report.contracts, new Map(contracts.map((c) => [c.uri, c.model]))).catch((e: unknown) => {
      if (!(e instanceof InputError)) throw e;
      errorLine(e.text(lang));
      return undefined;
    });
    if (!graded) return EXIT.USAGE;
    const { byUri, stats } = graded;
    printReadStats(stats, lang);
    report = withProduction(report, byUri);
  }
  if (options.prove) {
    const byUri = new Map<string, ReturnType<typeof proveSummary>>();
    for (const c of contracts) byUri.set(c.uri, proveSummary(await proveContract(c.model, { solver: await z3Solver() })));
    report = withProve(report, byUri);
  }
  const output = render(REPORT_FORMATS, options, report, { cwd, lang, color: useColor(options.color) });
  if (options.output) {
    const file = resolve(cwd, options.output);
    try {
      writeFileAtomic(file, output, {}, options.output);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      errorLine(e.text(lang));
      return EXIT.USAGE;
    }
    errorLine(format('cli.report.written', { file: displayPath(cwd, file) }, lang));
  } else {
    process.stdout.write(output);
  }
  return problems.length > 0 || configProblems.length > 0 ? EXIT.USAGE : EXIT.OK;
}

export function registerReportCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  const report = withFormatOptions(program.command('report').description(t('cli.report.description')).usage(t('cli.usage.lint')).argument('[paths...]', t('cli.lint.paths')), REPORT_FORMATS, lang)
    .option('-o, --output <file>', t('cli.option.output'))
    .option('--root <dir>', t('cli.option.root'))
    .option('--traces <path>', t('cli.report.traces'))
    .option('--prove', t('cli.report.prove'))
    .addOption(jobsOption(lang));
  // The same output options as every command (docs/cli.md).
  withColorOptions(report, lang)
    .addHelpText('after', exitCodesHelp('report', lang))
    .action(async (paths: string[], options: ReportOptions) => {
      setExitCode(await runReport(paths, options, lang));
    });
}
