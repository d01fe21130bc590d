/**
 * `agents-md trace export <trace> --otlp FILE|URL` (docs/tracing.md): a run as OpenTelemetry spans
 * following the GenAI semantic conventions, written as OTLP JSON to a file or sent as OTLP/HTTP
 * (protobuf) to a collector. The contract's PII fields are applied again to what leaves.
 */
import { resolve } from 'node:path';
import { traceSpans, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { InputError } from '../node/dryRunHost.ts';
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { EXIT } from './exitCodes.ts';
import { TOOL_NAME, TOOL_VERSION } from './meta.ts';
import { displayPath } from './report.ts';
import { errorLine } from './terminal.ts';
import { contractOf, readTrace } from './traceFile.ts';
import './messages.ts';

export interface ExportOptions {
  readonly otlp: string;
  readonly root?: string;
  readonly timeout?: string;
}

/** An OTLP/HTTP endpoint rather than a file: an http(s) URL. */
const isUrl = (target: string) => /^https?:\/\//i.test(target);

export async function exportCommand(file: string, o: ExportOptions, lang: Lang, setExitCode: (code: number) => void): Promise<void> {
  // OpenTelemetry is loaded by this command only (docs/performance.md, "Start-up").
  const { endpointLabel, OTLP_TIMEOUT_MS, otlpJson, sendOtlp } = await import('../node/otlpExport.ts');
  const cwd = process.cwd();
  const path = resolve(cwd, file);
  const name = displayPath(cwd, path);
  const { verdict } = await readTrace(path, cwd);
  if (verdict.problems.length > 0) throw new InputError('cli.trace-export.corrupted', { file: name });
  if (verdict.events.length === 0) throw new InputError('cli.trace-export.empty', { file: name });
  // The trace is redacted as it is written; the contract's PII fields, when it can be read, once more.
  const contract = await contractOf(verdict.events, resolve(cwd, o.root ?? '.'), cwd).catch(() => undefined);
  const spans = await traceSpans(verdict.events, contract ? { contract: contract.model } : {});
  const origin = { name: TOOL_NAME, version: TOOL_VERSION };
  const out = (s: string) => process.stdout.write(`${s}\n`);
  if (isUrl(o.otlp)) {
    if (!URL.canParse(o.otlp)) throw new InputError('cli.trace-export.bad-url', { url: o.otlp });
    const timeout = o.timeout === undefined ? OTLP_TIMEOUT_MS : Number(o.timeout);
    if (!Number.isInteger(timeout) || timeout <= 0) throw new InputError('cli.trace-export.bad-timeout', { value: String(o.timeout) });
    try {
      await sendOtlp(spans, o.otlp, origin, timeout);
    } catch (e) {
      errorLine(format('cli.trace-export.unreachable', { url: endpointLabel(o.otlp), error: (e as Error).message || String(e) }, lang));
      setExitCode(EXIT.FAILED);
      return;
    }
    out(format('cli.trace-export.sent', { count: spans.length, url: endpointLabel(o.otlp) }, lang));
  } else {
    const target = resolve(cwd, o.otlp);
    writeFileAtomic(target, `${otlpJson(spans, origin)}\n`, {}, displayPath(cwd, target));
    out(format('cli.trace-export.written', { count: spans.length, path: displayPath(cwd, target) }, lang));
  }
  setExitCode(EXIT.OK);
}
