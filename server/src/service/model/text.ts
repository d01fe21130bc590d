import type { Range } from '../types.ts';
import { LineIndex } from '../text/lineIndex.ts';
import type { ContractModel } from './types.ts';

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
