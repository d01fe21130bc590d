/**
 * The prose of the generated rule reference (docs/rules.md and docs/zh-cn/rules.md, rendered by
 * scripts/ruleDocs.ts). The rules' own texts come from the rule catalogue (validate/messages.ts).
 */
import { registerMessages } from './registry.ts';

export const DOCS_MESSAGES = {
  'docs.rules.title': '# Rules',
  'docs.rules.otherLanguage': '[简体中文](zh-cn/rules.md)',
  'docs.rules.intro':
    "Every diagnostic has a stable code. Each rule below gives its default severity, where it is documented (the section of docs/ it implements), why it matters, and a bad and a good example; the examples are also the rule's test fixtures.",
  'docs.rules.configuring': '## Configuring rules',
  'docs.rules.configFile':
    "In `.agents-md.json` or `.agents-md.yaml` (the nearest one in the contract's folder or an ancestor, up to the workspace root; schema: `schemas/config.schema.json`):",
  'docs.rules.settings': 'A setting is `off`, `info`, `warning`, `error`, or `{ "severity": …, "options": { … } }`. Inline, in HTML comments, as markdownlint does:',
  'docs.rules.directiveHeader': '| comment | effect |',
  'docs.rules.nextLine': 'the next line',
  'docs.rules.ownLine': "the comment's own line",
  'docs.rules.between': 'the lines between',
  'docs.rules.wholeFile': 'the whole file',
  'docs.rules.fileSeverities': 'severities for this file',
  'docs.rules.allRulesDirective': 'Without rule codes a directive applies to every rule.',
  'docs.rules.all': '## All rules',
  'docs.rules.presets':
    '### Presets\n\nTwo presets, as in ESLint and markdownlint. `recommended` (the default) holds the rules whose every finding is worth acting on. `strict` adds the style and quality advice: tool naming and descriptions, parameter examples, extraction patterns for entities, role completeness and readability. Choose it in the config file with `extends`, or in VS Code with the `agentsMd.preset` setting (a config file\'s `extends` wins). A rule set explicitly in `rules` runs whatever the preset.',
  'docs.rules.fixes':
    '### Fixes\n\nA rule declares its fix beside its check. **auto-fix** fixes are safe: they change only the text the finding points at, to what the message says, or add the one line it asks for (an approval flag, a fallback entry), and each is checked against its result: a fix that would add a finding of any rule (a misspelt `## TOOSL` renamed into a second `## TOOLS`) is not applied, and where the section it names exists, the quick fix moves the content into it instead; `agents-md lint --fix` applies them and reports what it changed, and VS Code applies them on save with `"editor.codeActionsOnSave": { "source.fixAll.agentsMd": "explicit" }`. **quick fix** fixes need your judgement (a section skeleton, an audit row, a new authorised role, a tool\'s new name) and are offered in the editor only. A rule can have both: a near-miss value is fixed automatically, while a guess (a duration\'s unit, a new table column) is only offered; the table shows the fix of its bad example. Each rule\'s bad example below marks the range of its finding and shows the text after its fix.',
  'docs.rules.fixCell.safe': 'auto-fix',
  'docs.rules.fixCell.quickfix': 'quick fix',
  'docs.rules.tableHeader': '| code | severity | preset | fix | checks |',
  'docs.rules.precision':
    '### Measured precision\n\nMeasured on the independent corpus (test/corpus/independent/): {contracts} clean contracts ({lines} lines) written from docs/contract-format.md alone by authors who never read the rules\' code, and copies with {planted} planted mistakes. Every finding on a clean contract is false (the authors fixed the true ones); a rule\'s precision is the planted mistakes it found / (those + its false findings). With `recommended`: {falseFindings} false findings, {falseErrors} of them errors, and {found} of {planted} planted mistakes found. A rule below 90 % precision does not stay in `recommended`. `npm run precision` measures again and lists every false finding and every miss.',
  'docs.rules.precisionHeader': '| code | preset | false findings | planted found | planted missed | precision |',
  'docs.rule.severity': 'Default severity: **{severity}**',
  'docs.rule.source': 'Source: {source}',
  'docs.rule.preset': 'Preset: **{preset}**',
  'docs.rule.fix.safe': 'Fix: auto-fix (`lint --fix`, fix-on-save)',
  'docs.rule.fix.quickfix': 'Fix: quick fix in the editor',
  'docs.rule.workspace': 'Reads the workspace',
  'docs.rule.notPartial': 'Not run on partial contracts',
  'docs.rule.message': 'Message: “{message}”',
  'docs.rule.variants': 'In particular cases, instead:',
  'docs.rule.variant': '- “{message}”',
  'docs.rule.withConfig': 'With this `.agents-md.json`:',
  'docs.rule.withFiles': 'With these workspace files: {files}.',
  'docs.rule.bad': 'Bad:',
  'docs.rule.good': 'Good:',
  'docs.rule.at': 'The finding covers the part between ⟦ and ⟧: {at}',
  'docs.rule.fixed': 'After its fix:',
  'docs.rule.fixedIsGood': 'Its fix turns the bad example into the good one.',
  'docs.rule.noExample': 'This rule has no document example: its findings come from the file itself, not from what the contract says.',
} as const;

registerMessages('docs', DOCS_MESSAGES);
