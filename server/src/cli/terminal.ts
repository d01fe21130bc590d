/** Small helpers of the CLI's output, shared by its commands. */
import { TOOL_NAME } from './meta.ts';

/** Whether a command chose colours: only then do colour sequences pass `terminalSafe`. */
let colourChosen = false;

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(explicit: boolean | undefined): boolean {
  const on = explicit ?? (Boolean(process.stdout.isTTY) && !process.env['NO_COLOR']);
  colourChosen ||= on;
  return on;
}

/**
 * Control characters (C0 but tab and line feed, DEL, C1) and bidirectional overrides, with colour
 * sequences (SGR) matched first so that they can be let through when colours are on.
 */
const UNSAFE = /\x1b\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control sequence a file, a snapshot, a model or an endpoint could carry
 * written out as `\u001b`-style text (docs/robustness.md, "Terminal"): no clear screen, forged line,
 * OSC 8 link or OSC 52 clipboard write reaches the terminal. The escape is JSON's, so JSON output
 * keeps its value.
 */
export function terminalSafe(text: string, colour = colourChosen): string {
  return text.replace(UNSAFE, (m) => (m.length > 1 && colour ? m : [...m].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')));
}

const raw = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

/** Makes everything written to standard output and error pass `terminalSafe` (once per process). */
export function guardOutput(): void {
  for (const [stream, write] of [[process.stdout, raw.out], [process.stderr, raw.err]] as const) {
    if ((stream as { guarded?: boolean }).guarded) continue;
    Object.assign(stream, { guarded: true });
    stream.write = ((chunk: unknown, ...rest: unknown[]) => (write as (c: unknown, ...r: unknown[]) => boolean)(typeof chunk === 'string' ? terminalSafe(chunk) : chunk, ...rest)) as typeof stream.write;
  }
}

/** A message about the run itself, on standard error: `agents-md: message`. */
export function errorLine(message: string): void {
  process.stderr.write(`${TOOL_NAME}: ${message}\n`);
}

/** A whole message as an indented line of a report (layout, not composition: the text stays one message). */
export function indented(text: string, spaces: number): string {
  return ' '.repeat(spaces) + text;
}

/** Replaces the progress line on standard error (a terminal) with `text`; `''` clears it. */
export function progressLine(text: string): void {
  raw.err(`\r\x1b[K${terminalSafe(text)}`);
}
