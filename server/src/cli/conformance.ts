/**
 * `agents-md conformance <contract> --traces FILE|DIR` and `--listen 127.0.0.1:PORT`
 * (docs/conformance.md): production traces graded clause by clause, as text, JSON, SARIF or
 * Markdown. Exit 0 when no clause is violated, 1 when one is, 2 when an input cannot be read.
 */
import { resolve } from 'node:path';
import { type Command } from 'commander';
import { ConformanceGrader, conformanceMarkdown, conformanceText, type ConformanceReport, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { loadContract } from '../node/dryRunHost.ts';
import { InputError } from '../node/inputError.ts';
import { MAX_LINE_BYTES, readTraces, type TraceReadStats } from '../node/traceSource.ts';
import { displayPath } from './report.ts';
import { errorLine } from './terminal.ts';
import { guarded } from './guarded.ts';
import { EXIT } from './exitCodes.ts';
import { render, withFormatOptions, type FormatOptions, type Formatters } from './format/registry.ts';
import { conformanceJson, conformanceSarif } from './format/conformance.ts';

interface ConformanceOptions extends FormatOptions {
  readonly traces?: string;
  readonly listen?: string;
}

/** `127.0.0.1:PORT` → the port; anything else is refused (servers listen on the loopback only). */
export function listenPort(value: string): number {
  const m = /^(?:127\.0\.0\.1|localhost):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[1]) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new InputError('conformance.cli.badListen', { value });
  return port;
}

/** What the reader skipped, on standard error. */
export function printReadStats(stats: TraceReadStats, lang: Lang): void {
  if (stats.skippedLines > 0) errorLine(format('conformance.cli.skipped', { count: stats.skippedLines }, lang));
  if (stats.tooLongLines > 0) errorLine(format('conformance.cli.tooLong', { count: stats.tooLongLines, max: MAX_LINE_BYTES / 1024 / 1024 }, lang));
}

/** Resolves when the process is asked to stop (Ctrl+C, SIGTERM). */
const stopped = () =>
  new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

/** The graded report, the contract's path as shown and the root SARIF's paths are relative to. */
interface Graded {
  readonly report: ConformanceReport;
  readonly file: string;
  readonly root: string;
}

const CONFORMANCE_FORMATS: Formatters<Graded> = {
  text: (g, c) => conformanceText(g.report, g.file, c.lang),
  json: (g, c) => conformanceJson(g.report, g.file, c.lang),
  sarif: (g, c) => conformanceSarif(g.report, g.file, g.root, c.lang),
  markdown: (g, c) => conformanceMarkdown(g.report, g.file, c.lang),
};

async function runConformance(contract: string, options: ConformanceOptions, lang: Lang): Promise<number> {
  const cwd = process.cwd();
  if (!options.traces && !options.listen) throw new InputError('conformance.cli.noTraces');
  const loaded = await loadContract(resolve(cwd, contract), cwd);
  const file = displayPath(cwd, loaded.path);
  const grader = new ConformanceGrader(loaded.model);
  if (options.traces) {
    printReadStats(await readTraces(resolve(cwd, options.traces), (s) => grader.add(s)), lang);
  }
  if (options.listen) {
    // protobufjs and the OTLP definitions load only here: every other command starts without them.
    const { startOtlpReceiver } = await import('../node/otlpReceiver.ts');
    const receiver = await startOtlpReceiver(listenPort(options.listen), (s) => grader.add(s)).catch((e: NodeJS.ErrnoException) => {
      throw new InputError('conformance.cli.cannotRead', { file: options.listen!, error: e.code ?? String(e) });
    });
    errorLine(format('conformance.cli.listening', { url: receiver.url }, lang));
    await stopped();
    await receiver.close();
    // A passing grade on requests the receiver could not read would say nothing: say how many.
    if (receiver.refused > 0) errorLine(format('conformance.cli.refused', { count: receiver.refused }, lang));
  }
  const report = grader.finish();
  process.stdout.write(render(CONFORMANCE_FORMATS, options, { report, file, root: cwd }, { cwd, color: false, lang }));
  return report.violations > 0 ? EXIT.FAILED : EXIT.OK;
}

export function registerConformanceCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  const command = program
    .command('conformance')
    .description(t('conformance.cli.description'))
    .argument('<contract>', t('conformance.cli.contract'))
    .option('--traces <path>', t('conformance.cli.traces'))
    .option('--listen <address>', t('conformance.cli.listen'));
  withFormatOptions(command, CONFORMANCE_FORMATS, lang)
    .addHelpText('after', ['', t('conformance.cli.exitCodes')].join('\n'))
    .action(
      guarded(setExitCode, lang, async (contract: string, options: ConformanceOptions) => {
        setExitCode(await runConformance(contract, options, lang));
      }),
    );
}
