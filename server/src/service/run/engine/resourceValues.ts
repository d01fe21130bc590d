/**
 * The values a resource file gives to the expression language's `IN` (docs/dry-run.md,
 * "Expressions"): a CSV file every cell of its rows after the header row, a JSON file its
 * top-level array (or an object's keys), any other text file its non-empty trimmed lines.
 * Pure; never throws.
 */

/** Parses CSV text (RFC 4180: quoted fields, doubled quotes, CRLF) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((x) => x.trim() !== ''));
}

/** The values of a resource file by its name's extension. */
export function resourceValues(name: string, text: string): unknown[] {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv') || lower.endsWith('.tsv')) {
    const rows = lower.endsWith('.tsv') ? text.split(/\r?\n/).filter((l) => l.trim()).map((l) => l.split('\t')) : parseCsv(text);
    return rows.slice(1).flatMap((r) => r.map((c) => c.trim()).filter((c) => c !== ''));
  }
  if (lower.endsWith('.json')) {
    try {
      const v: unknown = JSON.parse(text);
      if (Array.isArray(v)) return v;
      if (v && typeof v === 'object') return Object.keys(v);
    } catch {
      // Not JSON: read it as lines like any text file.
    }
  }
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}
