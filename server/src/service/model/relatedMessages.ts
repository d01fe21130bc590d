/**
 * Messages of a diagnostic's related locations (LSP `relatedInformation`): the other place a
 * finding points at. One message set for the parser and every rule, since the same few notes recur.
 */
import { registerMessages } from '../l10n/registry.ts';

export const RELATED_MESSAGES = {
  'related.firstDefined': 'first defined here',
  'related.alsoInFrontMatter': 'also defined in front matter',
  'related.firstDeclared': 'first declared here',
  'related.declaredHere': 'declared here',
  'related.firstUsed': 'first used here',
  'related.toolsDeclared': 'tools are declared here',
  'related.poolsDeclared': 'pools of this contract are declared here',
  'related.entitiesDeclared': 'entities are declared here',
  'related.authorisedRoles': 'authorised roles are listed here',
  'related.roleDeclared': '{role} is declared here',
  'related.noFallbackEntry': 'FAILURE_PROTOCOL has no entry for this scenario',
  'related.auditTable': 'the audit table',
} as const;

/** The id of a related-location message. */
export type RelatedMessageId = keyof typeof RELATED_MESSAGES;

registerMessages('related', RELATED_MESSAGES);
