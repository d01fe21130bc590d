/**
 * The one message formatter (docs/localisation.md: messages are templates with ids): a message
 * id and its named arguments become text in a display language (template syntax: template.ts).
 * English templates come from the message sets registered in `registry.ts`; translations from
 * `l10n/bundle.l10n.<lang>.json`, keyed by the same ids (docs/localisation.md). The bundles are
 * bundled like the schemas, so that the CLI and the server need no file beside them (the server
 * also runs outside VS Code) and formatting stays pure.
 */
import type { l10nJsonFormat } from '@vscode/l10n';
import zhCn from '../../../../l10n/bundle.l10n.zh-cn.json' with { type: 'json' };
import { englishTemplate } from './registry.ts';
import { fill } from './template.ts';
import type { Lang } from './lang.ts';

/** Named arguments of a message: `{name}` placeholders take these values. */
export type MessageArgs = Readonly<Record<string, string | number>>;

/** The translation bundles of the shipped languages other than English, in @vscode/l10n's format. */
const TRANSLATIONS: Readonly<Record<Exclude<Lang, 'en'>, l10nJsonFormat>> = { 'zh-cn': zhCn as l10nJsonFormat };

/** The template of a message in a language (translation, else English), or undefined for an unknown id. */
export function template(id: string, lang: string = 'en'): string | undefined {
  const entry = (TRANSLATIONS as Readonly<Record<string, l10nJsonFormat>>)[lang.toLowerCase()]?.[id];
  const translated = typeof entry === 'string' ? entry : entry?.message;
  return translated || englishTemplate(id);
}

/**
 * The text of message `id` in `lang` (`en`, `zh-cn`; anything else is English), with `args`
 * filled in. Always one whole template: callers never join translated pieces into a sentence
 * (test/l10n.test.ts enforces it). An id no message set knows is returned as is, so that the
 * mistake shows instead of crashing; the tests check every id used in the sources.
 */
export function format(id: string, args: MessageArgs = {}, lang: string = 'en'): string {
  const t = template(id, lang);
  return t === undefined ? id : fill(t, args, lang.toLowerCase());
}
