/**
 * The version advice of a diff (docs/semantic-diff.md "Version advice"): the bump the changes require against the bump the
 * contract declares (its front-matter `version`, before and after), and whether VERSIONING &
 * AUDIT got a row for the new version. Semver core numbers only: a pre-release or build suffix
 * does not count as a bump.
 */
import type { ParsedContract } from '../parse/parseContract.ts';
import { normaliseVersion, SEMVER } from '../model/version.ts';
import { diffMessage } from './diffMessage.ts';
import type { DiffMessageId } from './messages.ts';
import { BUMPS, maxBump } from './rules.ts';
import type { Bump, Change, DeclaredBump, VersionAdvice } from './types.ts';

/**
 * The `before`/`after`/`version` argument of the advice's messages when a side declares no
 * version. Like the bumps (`major`, `none`…), a machine value that each translation words itself
 * (ICU select, l10n/template.ts), so that the arguments are the same in every language.
 */
export const NO_VERSION = 'none';

/** The declared version of a contract without its leading `v`, or undefined. */
export function declaredVersion(model: ParsedContract): string | undefined {
  const v = model.data['version'];
  return v === undefined || v === null || v === '' ? undefined : normaliseVersion(v);
}

/** The bump from one version to another; `unknown` when either is missing or not semver. */
export function declaredBump(from: string | undefined, to: string | undefined): DeclaredBump {
  const a = from === undefined ? null : SEMVER.exec(from);
  const b = to === undefined ? null : SEMVER.exec(to);
  if (!a || !b) return 'unknown';
  for (let i = 1; i <= 3; i++) {
    const x = Number(a[i]);
    const y = Number(b[i]);
    if (y > x) return (['major', 'minor', 'patch'] as const)[i - 1]!;
    if (y < x) return 'downgrade';
  }
  return 'none';
}

/** Whether the audit table of a model has a row for `version`. */
function hasAuditRow(model: ParsedContract, version: string | undefined): boolean {
  const rows = model.data['versioning'];
  return version !== undefined && Array.isArray(rows) && rows.some((r) => normaliseVersion(r?.version) === version);
}

/** The advice for `changes` between two models. */
export function versionAdvice(before: ParsedContract, after: ParsedContract, changes: readonly Change[]): VersionAdvice {
  const declaredBefore = declaredVersion(before);
  const declaredAfter = declaredVersion(after);
  const required = changes.reduce<Bump>((m, c) => maxBump(m, c.bump), 'none');
  const declared = declaredBump(declaredBefore, declaredAfter);
  const sufficient = required === 'none' || (declared !== 'unknown' && declared !== 'downgrade' && BUMPS.indexOf(declared) >= BUMPS.indexOf(required));
  const auditRowPresent = hasAuditRow(after, declaredAfter);
  const auditRowAdded = auditRowPresent && !hasAuditRow(before, declaredAfter);
  const messageId: DiffMessageId =
    required === 'none' ? 'advice.none'
    : declared === 'unknown' ? 'advice.unknown'
    : declared === 'downgrade' ? 'advice.downgrade'
    : declared === 'none' ? 'advice.unchanged'
    : sufficient ? 'advice.sufficient' : 'advice.insufficient';
  const args = { required, declared, before: declaredBefore ?? NO_VERSION, after: declaredAfter ?? NO_VERSION };
  const auditId: DiffMessageId = declaredAfter === undefined ? 'audit.noVersion' : auditRowAdded ? 'audit.added' : auditRowPresent ? 'audit.present' : 'audit.missing';
  const auditArgs = { version: declaredAfter ?? NO_VERSION };
  // The change that drives the bump: the first that needs the whole of it (changes come in section order).
  const driver = required === 'none' ? undefined : changes.find((c) => c.bump === required);
  return {
    ...(driver ? { drivenBy: driver.id } : {}),
    ...(declaredBefore !== undefined ? { declaredBefore } : {}),
    ...(declaredAfter !== undefined ? { declaredAfter } : {}),
    required, declared, sufficient, auditRowPresent, auditRowAdded,
    messageId, args, message: diffMessage(messageId, args),
    audit: { messageId: auditId, args: auditArgs, message: diffMessage(auditId, auditArgs) },
  };
}
