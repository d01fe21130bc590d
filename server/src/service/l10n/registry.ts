/**
 * The registry of message sets. A message set is one module of plain data: message id → English
 * template with `{named}` placeholders, kept beside the feature that owns it (validate/messages.ts,
 * diff/messages.ts…), which registers it here when it loads; the registry itself imports none of
 * them, so every layer may format its own messages (ARCHITECTURE.md, layers). The service's
 * index.ts loads every owner in the service; the `cli` set (server/src/cli/messages.ts) is loaded
 * by the CLI and by scripts/l10nBundle.ts, so that `format()`, `npm run generate`
 * (l10n/bundle.l10n.json) and test/l10n.test.ts see all of them. Adding a feature's messages is one `registerMessages` call
 * plus its name below and its translations in `l10n/bundle.l10n.zh-cn.json` (docs/localisation.md).
 */

/** Message id → English template. Ids are unique across all message sets. */
export type MessageSet = Readonly<Record<string, string>>;

/** Every message set, by name, in the order of the generated English bundle. */
export const MESSAGE_SET_NAMES = ['rules', 'related', 'features', 'config', 'cli', 'docs', 'model', 'diff', 'run', 'report', 'providers', 'files', 'conformance', 'prove'] as const;
export type MessageSetName = (typeof MESSAGE_SET_NAMES)[number];

const sets = new Map<MessageSetName, MessageSet>();
let english: Map<string, string> | undefined;
let duplicates: string[] = [];

/**
 * Registers the messages of one feature under `name`; `prefix` is put before every id, for a
 * feature whose short ids would clash with others'. Returns `messages` unchanged.
 */
export function registerMessages<T extends MessageSet>(name: MessageSetName, messages: T, prefix = ''): T {
  sets.set(name, prefix ? Object.fromEntries(Object.entries(messages).map(([id, text]) => [`${prefix}${id}`, text])) : messages);
  english = undefined;
  return messages;
}

function build(): Map<string, string> {
  if (english) return english;
  english = new Map();
  duplicates = [];
  for (const name of MESSAGE_SET_NAMES) {
    for (const [id, text] of Object.entries(sets.get(name) ?? {})) {
      if (english.has(id)) duplicates.push(id);
      else english.set(id, text);
    }
  }
  return english;
}

/** The names of the message sets registered so far (all of them once the service's index.ts is loaded). */
export function registeredMessageSets(): readonly MessageSetName[] {
  return MESSAGE_SET_NAMES.filter((n) => sets.has(n));
}

/** Ids defined by more than one message set (the first definition wins); the tests require none. */
export function duplicateMessageIds(): readonly string[] {
  build();
  return duplicates;
}

/** The English template of a message id, or undefined when no registered set defines it. */
export function englishTemplate(id: string): string | undefined {
  return build().get(id);
}

/** Every message id with its English template, in the order of `MESSAGE_SET_NAMES`. */
export function englishMessages(): ReadonlyMap<string, string> {
  return build();
}
