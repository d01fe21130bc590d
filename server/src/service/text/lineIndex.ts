import type { Position, Range } from '../types.ts';

/**
 * Maps UTF-16 offsets in a text to LSP positions and back. Line breaks are `\r\n`, `\n` or
 * `\r`, as LSP defines them. Built once per text in O(n); lookups are O(log lines).
 */
export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    this.starts = starts;
    // Without a carriage return the native search finds each break: reading every character
    // took most of the index's time, built on every keystroke for the whole document.
    if (text.indexOf('\r') < 0) {
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
  }

  /** Number of lines (a text ending in a line break has an empty last line). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset of the start of `line` (clamped to the text). */
  lineStart(line: number): number {
    if (line <= 0) return 0;
    if (line >= this.starts.length) return this.text.length;
    return this.starts[line]!;
  }

  /** Offset just past the last character of `line`, before its line break. */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1]! : this.text.length;
    let end = next;
    if (end > this.lineStart(line) && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.lineStart(line) && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** The text of `line` without its line break. */
  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** The position of `offset`, clamped to the text; `lineShift` is added to the line. */
  positionAt(offset: number, lineShift = 0): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + lineShift, character: Math.min(o, this.lineEnd(lo)) - this.starts[lo]! }; // never between a CR and its LF
  }

  /** The range of [start, end) offsets. */
  rangeAt(start: number, end: number, lineShift = 0): Range {
    return { start: this.positionAt(start, lineShift), end: this.positionAt(end, lineShift) };
  }

  /** The offset of a position (clamped to its line). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[position.line]!;
    return Math.min(start + Math.max(0, position.character), this.lineEnd(position.line));
  }
}
