/**
 * A display-ready tree node, the plain data behind the editor's trace view (dry run) and
 * semantic diff view. The service builds these trees with every label already in the
 * user's language, so the client only renders them (one generic tree view, no contract logic).
 */
import type { Range } from '../types.ts';

/** How a node is shown: its icon and colour in the editor. */
export type ViewNodeKind = 'group' | 'ok' | 'error' | 'warning' | 'info' | 'pending' | 'paused' | 'added' | 'removed' | 'changed' | 'renamed';

/** A place in a document a node links to (the contract clause, the other side of a diff). */
export interface ViewLocation {
  readonly uri: string;
  /** LSP range: 0-based line, UTF-16 character. */
  readonly range: Range;
}

/** One node of a view tree. */
export interface ViewNode {
  /** Unique within its tree and stable across refreshes of the same data. */
  readonly id: string;
  readonly label: string;
  /** Shown dimmed beside the label. */
  readonly description?: string;
  /** Markdown shown on hover. */
  readonly tooltip?: string;
  readonly kind: ViewNodeKind;
  /** Where a click on the node goes. */
  readonly location?: ViewLocation;
  /** A second place (the "before" side of a diff change): offered as a context action. */
  readonly otherLocation?: ViewLocation;
  /** Children; a node with children is collapsible. */
  readonly children?: readonly ViewNode[];
  /** Start expanded (e.g. a failure's group). */
  readonly expanded?: boolean;
}
