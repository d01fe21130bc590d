/**
 * The registry of message catalogues (issue 6). A catalogue is one module of plain data: message
 * id → English template with `{named}` placeholders. Every catalogue listed here is formatted by
 * `format()`, written to `l10n/bundle.l10n.json` by `npm run generate`, and checked for a complete
 * translation in every shipped language by test/l10n.test.ts. Adding a feature's catalogue is one
 * line below plus its translations in `l10n/bundle.l10n.zh-cn.json` (docs/localisation.md).
 */
import { RULE_MESSAGES } from '../validate/messages.ts';
import { RELATED_MESSAGES } from '../validate/related.ts';
import { FEATURE_MESSAGES } from '../features/messages.ts';
import { CONFIG_MESSAGES } from '../workspace/messages.ts';
import { CLI_MESSAGES } from './cliMessages.ts';
import { DOCS_MESSAGES } from './docsMessages.ts';
import { MODEL_MESSAGES } from '../run/modelMessages.ts';
import { DIFF_MESSAGES } from '../diff/messages.ts';
import { RUN_MESSAGES } from '../run/catalogue.ts';
import { REPORT_MESSAGES } from '../report/messages.ts';

/** Message id → English template. Ids are unique across all catalogues. */
export type MessageCatalogue = Readonly<Record<string, string>>;

/** Every catalogue, by name, in the order of the generated English bundle. */
export const CATALOGUES: Readonly<Record<string, MessageCatalogue>> = {
  rules: RULE_MESSAGES,
  related: RELATED_MESSAGES,
  features: FEATURE_MESSAGES,
  config: CONFIG_MESSAGES,
  cli: CLI_MESSAGES,
  docs: DOCS_MESSAGES,
  model: MODEL_MESSAGES,
  diff: prefixed('diff.', DIFF_MESSAGES),
  run: prefixed('run.', RUN_MESSAGES),
  report: REPORT_MESSAGES,
};

/** A catalogue whose ids get a prefix, for a feature whose short ids would clash with others'. */
function prefixed(prefix: string, catalogue: MessageCatalogue): MessageCatalogue {
  return Object.fromEntries(Object.entries(catalogue).map(([id, text]) => [`${prefix}${id}`, text]));
}

const english = new Map<string, string>();
/** Ids defined by more than one catalogue (the first definition wins); the tests require none. */
export const DUPLICATE_IDS: readonly string[] = (() => {
  const dup: string[] = [];
  for (const catalogue of Object.values(CATALOGUES)) {
    for (const [id, text] of Object.entries(catalogue)) {
      if (english.has(id)) dup.push(id);
      else english.set(id, text);
    }
  }
  return dup;
})();

/** The English template of a message id, or undefined when no catalogue defines it. */
export function englishTemplate(id: string): string | undefined {
  return english.get(id);
}

/** Every message id with its English template, in catalogue order. */
export function englishMessages(): ReadonlyMap<string, string> {
  return english;
}
