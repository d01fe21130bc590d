import type { SectionModel } from '../model/types.ts';
import type { RuleSetting } from './facts.ts';

/** A span of lines (0-based, inclusive) where some rules (or all, when `rules` is undefined) are off. */
interface Disabled {
  readonly from: number;
  readonly to: number;
  readonly rules?: ReadonlySet<string>;
}

/** Inline configuration read from HTML comments (docs/rules.md, "Inline configuration"). */
export interface Directives {
  /** True when `code` is disabled on `line` (0-based). */
  isDisabled(code: string, line: number): boolean;
  /** Rule settings from `<!-- agents-md-configure-file {...} -->`. */
  readonly fileSettings: Readonly<Record<string, RuleSetting>>;
}

const DIRECTIVE = /<!--\s*agents-md-(disable-next-line|disable-line|disable-file|enable-file|disable|enable|configure-file)\b([\s\S]*?)-->/g;

/**
 * Reads markdownlint-style inline comments: `agents-md-disable [rules]` … `agents-md-enable
 * [rules]`, `-disable-line`, `-disable-next-line`, `-disable-file`, `-enable-file` and
 * `-configure-file { "rule": "warning" }`. Without rule names a directive covers all rules.
 */
export function readDirectives(sections: readonly SectionModel[], lineCount: number): Directives {
  const spans: Disabled[] = [];
  const open = new Map<string, number>(); // rule ('*' for all) → first disabled line
  const fileSettings: Record<string, RuleSetting> = {};
  const fileOff = new Set<string>();
  const comments = sections.flatMap((s) => s.comments).sort((a, b) => a.range.start.line - b.range.start.line);
  for (const c of comments) {
    for (const m of c.text.matchAll(DIRECTIVE)) {
      const kind = m[1]!;
      const arg = m[2]!.trim();
      const line = c.range.start.line;
      if (kind === 'configure-file') {
        try {
          Object.assign(fileSettings, JSON.parse(arg));
        } catch {
          /* A malformed directive is ignored, like markdownlint does. */
        }
        continue;
      }
      const names = arg ? arg.split(/[\s,]+/).filter(Boolean) : ['*'];
      const set = (n: string) => (n === '*' ? undefined : new Set([n]));
      for (const n of names) {
        if (kind === 'disable-line') spans.push({ from: line, to: c.range.end.line, ...(set(n) ? { rules: set(n)! } : {}) });
        else if (kind === 'disable-next-line') spans.push({ from: c.range.end.line + 1, to: c.range.end.line + 1, ...(set(n) ? { rules: set(n)! } : {}) });
        else if (kind === 'disable-file') fileOff.add(n);
        else if (kind === 'enable-file') fileOff.delete(n);
        else if (kind === 'disable') {
          if (!open.has(n)) open.set(n, line);
        } else if (kind === 'enable') {
          const targets = n === '*' ? [...open.keys()] : [n];
          for (const t of targets) {
            const from = open.get(t);
            if (from === undefined) continue;
            spans.push({ from, to: line, ...(set(t) ? { rules: set(t)! } : {}) });
            open.delete(t);
          }
        }
      }
    }
  }
  for (const [n, from] of open) spans.push({ from, to: lineCount, ...(n === '*' ? {} : { rules: new Set([n]) }) });
  return {
    fileSettings,
    isDisabled(code, line) {
      if (fileOff.has('*') || fileOff.has(code)) return true;
      return spans.some((s) => line >= s.from && line <= s.to && (!s.rules || s.rules.has(code)));
    },
  };
}
