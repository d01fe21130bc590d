/**
 * The editor's semantic diff view as a `ViewNode` tree (docs/vscode.md): the version advice first,
 * then one node per section, its changes grouped by impact (breaking, risk-increasing,
 * risk-reducing, neutral). A change links to its place in the newer version and, as its other
 * location, to the older one. Every label is in `lang`.
 */
import type { SemanticDiff, Impact, Change } from '../diff/types.ts';
import type { DiffMessageId } from '../diff/messages.ts';
import { diffMessage } from '../diff/diffMessage.ts';
import { diffSectionTitle } from '../diff/labels.ts';
import type { ViewNode, ViewNodeKind } from './viewNode.ts';

const IMPACTS: readonly Impact[] = ['breaking', 'risk-increasing', 'risk-reducing', 'neutral'];
const IMPACT_KIND: Record<Impact, ViewNodeKind> = { breaking: 'error', 'risk-increasing': 'warning', 'risk-reducing': 'ok', neutral: 'info' };

/** Where the two versions are: `afterUri` the newer document, `beforeUri` the older one. */
export interface DiffTreeOptions {
  readonly beforeUri: string;
  readonly afterUri: string;
  readonly lang?: string;
}

function changeNode(c: Change, o: DiffTreeOptions, lang: string): ViewNode {
  const impact = diffMessage(`impact.${c.impact}`, {}, lang);
  return {
    id: `change:${c.id}`,
    label: diffMessage(c.reasonId, c.args, lang),
    description: diffMessage(`kind.${c.kind}`, {}, lang),
    tooltip: diffMessage('view.changeTooltip', { impact, bump: c.bump, path: c.path }, lang),
    kind: c.kind,
    location: { uri: o.afterUri, range: c.after.range },
    otherLocation: { uri: o.beforeUri, range: c.before.range },
  };
}

/** The diff view's tree. An empty diff gives one node that says so. */
export function diffTree(diff: SemanticDiff, options: DiffTreeOptions): ViewNode[] {
  const lang = options.lang ?? 'en';
  const a = diff.advice;
  const advice: ViewNode = {
    id: 'advice',
    label: diffMessage(a.messageId as DiffMessageId, a.args, lang),
    kind: a.sufficient ? 'ok' : 'warning',
    children: [{ id: 'advice:audit', label: diffMessage(a.audit.messageId as DiffMessageId, a.audit.args, lang), kind: a.required === 'none' || a.auditRowAdded ? 'ok' : 'warning' }],
    expanded: !a.sufficient,
  };
  if (diff.changes.length === 0) return [{ id: 'none', label: diffMessage('report.noChanges', {}, lang), kind: 'ok' }, advice];
  const sections = new Map<string, Change[]>();
  for (const c of diff.changes) sections.set(c.section, [...(sections.get(c.section) ?? []), c]);
  const sectionNodes = [...sections].map(([section, changes]): ViewNode => {
    const groups = IMPACTS.flatMap((impact): ViewNode[] => {
      const mine = changes.filter((c) => c.impact === impact);
      if (mine.length === 0) return [];
      return [{
        id: `section:${section}:${impact}`,
        label: diffMessage(`impact.${impact}`, {}, lang),
        description: String(mine.length),
        kind: IMPACT_KIND[impact],
        children: mine.map((c) => changeNode(c, options, lang)),
        expanded: impact !== 'neutral',
      }];
    });
    const worst = IMPACTS.find((i) => changes.some((c) => c.impact === i))!;
    return { id: `section:${section}`, label: diffSectionTitle(section as Change['section'], lang), description: String(changes.length), kind: IMPACT_KIND[worst], children: groups, expanded: true };
  });
  return [advice, ...sectionNodes];
}
