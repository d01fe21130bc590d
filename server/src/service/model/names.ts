/**
 * The one way names are read (docs/contract-format.md, "Cross-references"), shared by the
 * validator, the editor features, the dry run and the semantic diff, so that they agree on
 * whether two names are the same.
 *
 * - A name is compared as written, case included (a tool's name reaches its API as written),
 *   after removing what only dresses it: surrounding space, enclosing backticks, enclosing
 *   straight or curly quotes (`"`, `'`, `“ ”`, `‘ ’`), and runs of inner space (one space).
 * - A condition names a FAILURE_PROTOCOL entry or a HITL row in prose, so it is read without a
 *   leading "If"/"When"/"如果"/"若"/"当" and case-insensitively (`conditionKey`).
 */
import { canonicalJson } from '../util/canonicalJson.ts';
import { stripCode } from './values.ts';

const QUOTES = /^["'“”‘’]+|["'“”‘’]+$/g;

/** A value without enclosing backticks and quotes, inner text untouched (intent patterns, paths). */
export function unquote(v: unknown): string {
  return typeof v === 'string' ? stripCode(v).replace(QUOTES, '').trim() : '';
}

/**
 * A name as compared: `unquote`d, inner space runs made one space. Not a string: empty for
 * null or undefined, else its canonical JSON (a number, or an object written where a name goes).
 */
export function normaliseName(v: unknown): string {
  if (typeof v !== 'string') return v === undefined || v === null ? '' : canonicalJson(v);
  return unquote(v).replace(/\s+/g, ' ');
}

/** A condition or scenario as fired by name: `normaliseName`, without a leading If/When, lower case. */
export function conditionKey(v: unknown): string {
  return normaliseName(v)
    .replace(/^(?:if|when)\s+|^(?:如果|若|当)\s*/i, '')
    .toLowerCase();
}
