/**
 * AGENT_IDENTITY's statements of what the agent may do, compared as one pool (docs/semantic-diff.md,
 * "Boundaries and permissions"): ❌ hard boundaries (forbidden), Needs Confirmation items, and ✅
 * boundaries or May Act Directly items (allowed). A statement is matched by its wording without
 * its marker and modal verb (`❌ Never initiate payments` and `✅ May initiate payments` are the
 * same action), so an action that moves between levels is one change that loosens or tightens,
 * not a removal and an addition. Moving between the two allowed lists is no change.
 */
import { segment, type DiffBuilder, type Scope } from './builder.ts';
import { REWORDED } from './fields.ts';
import { matchItems } from './match.ts';
import { brief, codeNames, lostNames, normText, words } from './normalise.ts';
import type { RuleId } from './rules.ts';
import type { ItemKind } from './types.ts';
import { formChange, formKey as formOf } from './boundaryForms.ts';

/** How much a statement lets the agent do. */
type Level = 'forbidden' | 'confirm' | 'allowed';

/** The identity fields that hold statements, and the level of their items. */
export const PERMISSION_FIELDS = ['hard_boundaries', 'needs_confirmation', 'may_act_directly'] as const;

interface Statement {
  readonly field: string;
  readonly index: number;
  readonly text: string;
  readonly level: Level;
  /** The wording without marker and modal verb, lowercased. */
  readonly core: string;
}

const ALLOW_MARK = /^\s*(?:✅|✔️?|☑️?|\[x\])\s*/u;
const FORBID_MARK = /^\s*(?:❌|✖️?|✗|⛔|🚫|\[ \])\s*/u;
const MODAL = /^(?:must never|must not|should never|never|do not|don't|cannot|can't|may not|not allowed to|no|may|can|is allowed to|allowed to|always|only|禁止|不得|不能|不可|可以|允许|可)\s*/iu;
const ALLOW_WORD = /^(?:may|can|is allowed to|allowed to|可以|允许|可)(?:\s|$)/iu;

function statements(identity: Record<string, unknown> | undefined): Statement[] {
  const out: Statement[] = [];
  for (const field of PERMISSION_FIELDS) {
    const items = identity?.[field];
    if (!Array.isArray(items)) continue;
    items.forEach((raw, index) => {
      const text = normText(String(raw));
      if (!text) return;
      const unmarked = text.replace(ALLOW_MARK, '').replace(FORBID_MARK, '');
      const level: Level =
        field === 'needs_confirmation' ? 'confirm' : field === 'may_act_directly' || ALLOW_MARK.test(text) || (!FORBID_MARK.test(text) && ALLOW_WORD.test(unmarked)) ? 'allowed' : 'forbidden';
      out.push({ field, index, text, level, core: unmarked.replace(MODAL, '').toLowerCase() });
    });
  }
  return out;
}

const ADDED: Record<Level, RuleId> = { forbidden: 'boundary-added', confirm: 'confirmation-added', allowed: 'permission-added' };
const REMOVED: Record<Level, RuleId> = { forbidden: 'boundary-removed', confirm: 'confirmation-removed', allowed: 'permission-removed' };
const REWORD: Record<Level, RuleId> = { forbidden: 'boundary-reworded', confirm: 'confirmation-reworded', allowed: 'permission-reworded' };
const KIND: Record<Level, ItemKind> = { forbidden: 'boundary', confirm: 'confirmation', allowed: 'permission' };
/** Moves between levels, by `from>to`. */
const MOVED: Record<string, RuleId> = {
  'forbidden>confirm': 'boundary-lifted-to-confirmation',
  'forbidden>allowed': 'boundary-lifted-to-permission',
  'confirm>allowed': 'confirmation-dropped',
  'allowed>confirm': 'permission-to-confirmation',
  'allowed>forbidden': 'permission-to-boundary',
  'confirm>forbidden': 'confirmation-to-boundary',
};

/** A checkable boundary's identity: its tool and what limits it (docs/semantic-diff.md, "Checkable boundaries"). */
// Checkable boundaries pair only by what they limit, never by similar wording: `x` at most twice and `y` at most once are two boundaries.
const formKey = (s: Statement): string | undefined => (s.level === 'forbidden' ? formOf(s.text) : undefined);

/** Compares the statements of two AGENT_IDENTITY values; `scope` is the identity section's. */
export function diffPermissions(d: DiffBuilder, scope: Scope, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): void {
  const xs = statements(before);
  const ys = statements(after);
  const m = matchItems(xs, ys, { keys: [(s) => s.core, formKey], similar: { words: (s) => (formKey(s) ? undefined : words(s.core)), threshold: REWORDED } });
  const pointer = (side: string, s: Statement) => `${side}/${s.field}/${s.index}`;
  const emit = (rule: RuleId, kind: 'added' | 'removed' | 'changed', x: Statement | undefined, y: Statement | undefined, args: Record<string, string> = {}) => {
    const s = (y ?? x)!;
    d.report(rule, kind, scope, {
      field: s.field,
      itemKind: KIND[s.level],
      identity: brief(s.text, 60),
      path: `${scope.path}/${segment(x?.field ?? s.field)}/${segment(x?.core ?? s.core)}`,
      before: x ? { pointer: pointer(scope.before, x), value: x.text } : { pointer: `${scope.before}/${s.field}` },
      after: y ? { pointer: pointer(scope.after, y), value: y.text } : { pointer: `${scope.after}/${s.field}` },
      args,
    });
  };
  // A checkable boundary whose form changed (a count raised, an order made "only after success",
  // a prohibition made a limit) is one change that loosens or tightens, even when reworded past matching.
  const removed = m.removed.map((r) => r.item);
  const added = m.added.map((a) => a.item);
  const pairs: { before: Statement; after: Statement; by: string }[] = [...m.pairs];
  for (const x of [...removed]) {
    const y = x.level === 'forbidden' ? added.find((a) => a.level === 'forbidden' && formChange(x.text, a.text)) : undefined;
    if (!y) continue;
    removed.splice(removed.indexOf(x), 1);
    added.splice(added.indexOf(y), 1);
    pairs.push({ before: x, after: y, by: 'form' });
  }
  for (const { before: x, after: y, by } of pairs) {
    const form = x.level === 'forbidden' && y.level === 'forbidden' ? formChange(x.text, y.text) : undefined;
    if (form) {
      emit(form.rule, 'changed', x, y, { tool: form.tool });
      continue;
    }
    if (x.level !== y.level) {
      emit(MOVED[`${x.level}>${y.level}`]!, 'changed', x, y);
      continue;
    }
    if (by === 'key') continue;
    // A rewording that stops naming something a restriction named, or starts naming something
    // newly allowed, changes the risk; any other rewording is neutral.
    const names = y.level === 'allowed' ? lostNames(codeNames(y.text), codeNames(x.text)) : lostNames(codeNames(x.text), codeNames(y.text));
    const rule: RuleId = !names ? REWORD[y.level] : y.level === 'allowed' ? 'permission-widened' : y.level === 'confirm' ? 'confirmation-narrowed' : 'boundary-narrowed';
    emit(rule, 'changed', x, y, names ? { names } : {});
  }
  for (const x of removed) emit(REMOVED[x.level], 'removed', x, undefined);
  for (const y of added) emit(ADDED[y.level], 'added', undefined, y);
}
