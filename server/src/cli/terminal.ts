/** Small helpers of the CLI's output, shared by its commands. */
import { TOOL_NAME } from './meta.ts';

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(explicit: boolean | undefined): boolean {
  if (explicit !== undefined) return explicit;
  return Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];
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
  process.stderr.write(`\r\x1b[K${text}`);
}
