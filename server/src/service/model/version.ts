/** A semantic version (semver.org), with an optional leading `v`; groups 1–3 are MAJOR, MINOR, PATCH. */
export const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A version without its leading `v` and backticks, for comparing audit rows with the front matter. */
export function normaliseVersion(v: unknown): string {
  return String(v ?? '').trim().replace(/^`|`$/g, '').replace(/^v/i, '');
}
