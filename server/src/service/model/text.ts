import type { Range } from '../types.ts';
import { LineIndex } from '../text/lineIndex.ts';
import type { ContractModel, SectionModel } from './types.ts';

const indexes = new WeakMap<ContractModel, LineIndex>();

/** Gives a new model the line index its parse built of the same text (parse/parseContract.ts). */
export function keepLineIndex(model: ContractModel, index: LineIndex): void {
  indexes.set(model, index);
}

/** The document's line index, built once per model. */
export function lineIndexOf(model: ContractModel): LineIndex {
  let idx = indexes.get(model);
  if (!idx) {
    idx = new LineIndex(model.text);
    indexes.set(model, idx);
  }
  return idx;
}

/** The document text in `range`. */
export function textAt(model: ContractModel, range: Range): string {
  const idx = lineIndexOf(model);
  return model.text.slice(idx.offsetAt(range.start), idx.offsetAt(range.end));
}

/** The range of `[start, end)` offsets within the text of `outer`. */
export function innerRange(model: ContractModel, outer: Range, start: number, end: number): Range {
  const idx = lineIndexOf(model);
  const base = idx.offsetAt(outer.start);
  return idx.rangeAt(base + start, base + end);
}

const sectionIndexes = new WeakMap<SectionModel, LineIndex>();

/** The text of document line `line` (0-based) inside `section`, from a line index of the section's own text: a rule that reads one section need not read the document. */
export function sectionLineText(section: SectionModel | undefined, line: number): string {
  if (!section) return '';
  let idx = sectionIndexes.get(section);
  if (!idx) sectionIndexes.set(section, (idx = new LineIndex(section.text)));
  return idx.lineText(line - section.startLine);
}
