/**
 * Child process of the language server (dist/tokenWorker.cjs): counts tokens with the
 * `o200k_base` tokenizer (docs/providers.md, "Token cost"), whose tables (about 36 MB of heap)
 * then never sit in the server; the process ends when idle (lsp/backgroundTokens.ts).
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { answerQuestions } from './childProcess.ts';

answerQuestions((texts: readonly string[]) => texts.map((t) => countTokens(t)));
