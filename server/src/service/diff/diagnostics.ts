/**
 * The version advice as diagnostics on the newer document, for an editor comparing it with an
 * older version (git HEAD): `diff-version-bump` when the declared bump is less than the changes
 * require, `diff-audit-row` when the changes came without a new VERSIONING & AUDIT row
 * (docs/semantic-diff.md "Version advice"). Both are warnings.
 */
import type { ContractDiagnostic, Range } from '../types.ts';
import { ZERO_RANGE } from '../types.ts';
import type { ParsedContract } from '../parse/parseContract.ts';
import { locate } from '../model/locate.ts';
import { DIFF_PREFIX, diffMessage } from './diffMessage.ts';
import { NO_VERSION } from './version.ts';
import type { SemanticDiff } from './types.ts';

/**
 * Diagnostics of `diff.advice` on `after` (the model the diff's after side was computed from).
 * `against` names the older version in messages (`HEAD`, a file name). Like the validator's, the
 * message is English and `messageId` (the registry's id, `diff.diagnostic.bump`) and `args`
 * (machine values) rebuild it in any language with `localiseDiagnostic`.
 */
export function versionAdviceDiagnostics(diff: SemanticDiff, after: ParsedContract, against: string): ContractDiagnostic[] {
  const a = diff.advice;
  const out: ContractDiagnostic[] = [];
  const at = (...pointers: string[]): Range => pointers.map((p) => locate(after, p)?.value).find((r) => r !== undefined) ?? ZERO_RANGE;
  if (!a.sufficient) {
    const args = { ...a.args, ref: against };
    // "went from 2.4.0 to 2.4.0 (none)" says nothing: an unchanged version is said so.
    const id = a.args['declared'] === 'none' && a.args['before'] === a.args['after'] ? 'diagnostic.bumpUnchanged' : 'diagnostic.bump';
    out.push({ code: 'diff-version-bump', severity: 'warning', range: at('/version'), messageId: `${DIFF_PREFIX}${id}`, args, message: diffMessage(id, args) });
  }
  if (a.required !== 'none' && !a.auditRowAdded) {
    const args = { ref: against, version: a.declaredAfter ?? NO_VERSION };
    out.push({ code: 'diff-audit-row', severity: 'warning', range: at('/versioning', '/version'), messageId: `${DIFF_PREFIX}diagnostic.auditRow`, args, message: diffMessage('diagnostic.auditRow', args) });
  }
  return out;
}
