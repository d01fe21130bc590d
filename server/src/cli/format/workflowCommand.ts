/**
 * GitHub Actions workflow commands (`::error file=…,title=…::message`, docs/ci.md): the one place
 * they are written. A file name or message from the repository can hold a line break followed by
 * `::warning …::`, `::add-mask::` or `::stop-commands::`; escaped as GitHub's toolkit does, it
 * stays inside its own command.
 */

/** A command's message: `%`, CR and LF escaped (the toolkit's `escapeData`). */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property value: also `:` and `,` (`escapeProperty`). */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One workflow command line: `::name key=value,…::message`, every part escaped. */
export function workflowCommand(name: 'error' | 'warning' | 'notice', properties: Readonly<Record<string, string | number>>, message: string): string {
  const props = Object.entries(properties).map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}
