/**
 * Problems with a configuration file (`.agents-md.json` / `.yaml`), shown after the file's path
 * (`.agents-md.json: rules.foo: unknown rule`). Values that do not match the config schema use
 * the `schema` rule's messages (`schema.enum`, `schema.type`…), which say the same thing.
 */
import { registerMessages } from '../l10n/registry.ts';

export const CONFIG_MESSAGES = {
  'config.unreadable': 'cannot be read',
  'config.invalidJson': 'is not valid JSON: {detail}',
  'config.invalidYaml': 'is not valid YAML: {detail}',
  'config.unknownSetting': '{path}: unknown setting',
  'config.unknownRule': 'rules.{rule}: unknown rule',
  'config.unknownImpactRule': 'diff.impacts.{rule}: unknown impact rule (docs/semantic-diff.md §9 lists them)',
  'config.unknownImpactRuleNear': 'diff.impacts.{rule}: unknown impact rule; did you mean {near}?',
} as const;

registerMessages('config', CONFIG_MESSAGES);
