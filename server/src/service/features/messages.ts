/**
 * The editor features' user-visible strings (hover, completion, code action titles, outline, the
 * language server's error replies) and the severity names shared with the CLI and the docs. English templates by id; translations in
 * `l10n/bundle.l10n.<lang>.json` (docs/localisation.md). Names of kinds (tool, pool…) are spelt
 * out in each message rather than inserted as words, so that every message translates whole.
 */
import { registerMessages } from '../l10n/registry.ts';

export const FEATURE_MESSAGES = {
  'severity.error': 'error',
  'severity.warning': 'warning',
  'severity.info': 'info',
  'severity.hint': 'hint',

  'hover.labels': 'Labels: {labels}',
  'hover.examples': 'Examples: {examples}',
  'hover.example': 'Example:',
  'hover.sectionDocs': '[{section} in the contract format](docs/contract-format.md#{anchor})',
  'hover.fields': 'Fields: {fields}',
  'hover.requiredSection': 'Required in every contract.',
  'hover.ruleTitle': '**{code}** ({severity})',
  'hover.ruleLink': '[Rule documentation](docs/rules.md#{code})',
  'hover.name.tool': '**Tool** `{name}`',
  'hover.name.pool': '**Memory pool** `{name}`',
  'hover.name.role': '**Role** `{name}`',
  'hover.name.entity': '**Entity** `{name}`',
  'hover.name.scenario': '**HITL scenario** `{name}`',
  'hover.name.resource': '**Resource** `{name}`',
  'hover.name.layer': '**Memory layer** `{name}`',
  'hover.declaredAtLine': 'Declared at line {line}.',
  'hover.declaredIn': 'Declared in {uri}.',
  'hover.notDeclared': 'Not declared in this contract.',
  'hover.field': '{label}: {value}',
  'hover.pattern': 'Pattern: `{pattern}`',
  // One figure in the lens and the hover on TOOLS (docs/providers.md, "Token cost"): what the tool definitions add to every request.
  'lens.cost': 'Tool definitions sent with every request: {tokens} tokens',
  'lens.cost.pending': 'Tool definitions sent with every request: tokens not counted yet',
  'lens.cost.budget': 'Tool definitions sent with every request: {tokens} tokens, {percent}% of the token budget',
  'hover.cost.tool': 'Its definition, sent with every request: {tokens} tokens.',

  'completion.name.tool': 'tool, line {line}',
  'completion.name.pool': 'memory pool, line {line}',
  'completion.name.role': 'role, line {line}',
  'completion.name.entity': 'entity, line {line}',
  'completion.name.scenario': 'HITL scenario, line {line}',
  'completion.name.resource': 'resource, line {line}',
  'completion.name.layer': 'memory layer, line {line}',
  'completion.entityVariable': 'entity {entity}',
  'completion.queryVariable': 'the user query',

  'action.addSection': 'Add the {section} section',
  'action.addAuditRow': 'Add the audit row for {version}',
  'action.addVersioning': 'Add VERSIONING & AUDIT with a row for {version}',
  'action.addFallback': 'Add a FAILURE_PROTOCOL fallback for "{scenario}"',
  'action.addSchemas': 'Add input_schema and output_schema to "{tool}"',
  'action.addInputSchema': 'Add input_schema to "{tool}"',
  'action.addOutputSchema': 'Add output_schema to "{tool}"',
  'action.quoteTemplate': 'Quote the template',
  'action.renameField': 'Change to "{label}"',
  'action.markContract': 'Add `contract: true` to the front matter',
  'action.fixAll': 'Fix all auto-fixable contract problems',
  'action.changeTitle': 'Change to {title}',
  'action.mergeSection': 'Move {from} into {title}',
  'action.declareTool': 'Declare `{tool}` in TOOLS',
  'action.changeToTool': 'Change to `{tool}`',
  'action.changeValue': 'Change to "{value}"',
  'action.authoriseWriter': 'Add "{role}" to Authorized Writers',
  'action.requireApproval': 'Require approval for "{tool}"',
  'action.declareEntity': 'Add "{entity}" to required_entities',
  'action.closeFence': 'Close the code fence before "{line}"',
  'action.closeFenceAtEnd': 'Close the code fence at the end of the file',
  'action.addErrorCode': 'Add error code {code}',
  'action.addBudgets': 'Add the missing budgets to {section}',
  'action.renameTool': 'Rename the tool to "{name}"',
  'action.recordHash': 'Record the current SHA-256 of {name}',
  'action.disableBlock': 'Disable {code} for this block',
  'action.disableLine': 'Disable {code} for this line',
  'action.disableFile': 'Disable {code} for this file',
  'action.convertToContract': 'Convert to an AGENTS.md contract',

  'symbol.frontMatter': 'front matter',

  'rename.resourcePath': 'A resource path is not renamed: the file `{path}` would have to move with it, and every contract that pins it would have to change. Move the file, then change the path in each contract that names it (Find All References lists them; docs/workspace.md).',

  'lsp.requestCancelled': 'The request was cancelled.',
  'lsp.documentChanged': 'The document changed; diagnostics are recomputed.',
  'lsp.invalidParams': 'Invalid params for {method}: {path} must be of type {expected}.',
  'lsp.notInitialized': '{method} was sent before initialize: the server is not initialized yet.',
  'lsp.droppedBeforeInitialize': 'Dropped {method}: it was sent before initialize.',
  'lsp.framingError': 'A message could not be read (framing error), the server stops: {detail}',
  'lsp.partialMessage': 'A message has been incomplete for {seconds} s: its Content-Length may be wrong.',
} as const;

registerMessages('features', FEATURE_MESSAGES);
