/**
 * Every owner of a message set, imported for its registration (l10n/registry.ts), so that
 * `format()` knows all of them whichever entry (index.ts or host.ts) a host loads first.
 */
import './validate/messages.ts';
import './model/relatedMessages.ts';
import './features/messages.ts';
import './workspace/messages.ts';
import './l10n/docsMessages.ts';
import './run/llm/llmMessages.ts';
import './diff/messages.ts';
import './run/messages.ts';
import './export/messages.ts';
