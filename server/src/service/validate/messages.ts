/**
 * Fills a message template's `{name}` placeholders from `args`. Unknown placeholders stay as
 * written, so a missing argument is visible rather than silently empty. Messages are always
 * whole templates (one per rule variant), never concatenated fragments, so that each can be
 * translated as a unit.
 */
export function formatMessage(template: string, args: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in args ? String(args[k]) : m));
}
