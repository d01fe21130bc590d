/**
 * Every message of the model providers (docs/model-providers.md), by id: whole English templates with
 * `{name}` arguments, translated by id (docs/localisation.md). `{endpoint}` is always the request URL
 * without credentials; `{detail}` is what the endpoint said, shortened. Providers pass every
 * formatted message through their API-key redaction before it leaves them.
 */
import { registerMessages } from '../../l10n/registry.ts';

export const MODEL_MESSAGES = {
  'model.settings.invalid': 'The dry-run model settings are not valid: {problems}.',
  'model.untrusted': 'The model endpoint {endpoint} is not used in an untrusted workspace. Trust the workspace to run against it, or use the scripted model.',
  'model.endpoint.unconfirmed': 'The model endpoint {endpoint} is named by the repository\'s configuration {config}; the API key and the prompts are sent there only when you confirm it: run with --trust-endpoint {endpoint} or add it to AGENTS_MD_TRUSTED_ENDPOINTS.',
  'model.baseUrl.invalid': 'The model base URL "{url}" is not an http:// or https:// URL.',
  'model.baseUrl.secret': 'The model base URL {url} carries credentials, a query or a fragment. Give the base URL alone, and the API key through an environment variable or VS Code\'s secret storage.',
  'model.apiKey.invalid': 'The API key contains spaces or characters that cannot be sent in an HTTP header.',
  'model.cancelled': 'The model request was cancelled.',
  'model.timeout': 'The model endpoint {endpoint} did not answer within {timeoutMs} ms (attempts made: {attempts}).',
  'model.unreachable': 'Cannot reach the model endpoint {endpoint}: {reason} (attempts made: {attempts}).',
  'model.redirect': 'The model endpoint {endpoint} answered HTTP {status} with a redirect to {location}; set the base URL to the address that answers.',
  'model.auth': 'The model endpoint {endpoint} refused the credentials (HTTP {status}: {detail}). Check the API key.',
  'model.notFound': 'The model endpoint {endpoint} answered HTTP 404 ({detail}). Check the base URL and the model name "{model}".',
  'model.rejected': 'The model endpoint {endpoint} rejected the request (HTTP {status}: {detail}).',
  'model.retryAfterTooLong': 'The model endpoint {endpoint} answered HTTP {status} and asks to wait {seconds} s, longer than the {limitSeconds} s a run waits.',
  'model.serverError': 'The model endpoint {endpoint} answered HTTP {status} ({detail}) (attempts made: {attempts}).',
  'model.response.tooLarge': 'The model endpoint {endpoint} sent an answer larger than {limit} bytes.',
  'model.response.notJson': 'The model endpoint {endpoint} did not answer with JSON ({error}); the answer starts with: {start}',
  'model.response.missing': 'The model endpoint {endpoint} did not answer with a chat completion: `{path}` is missing.',
  'model.option.invalid': 'The model option {option} must be {expected}; got {value}.',
  'model.response.type': 'The model endpoint {endpoint} did not answer with a chat completion: `{path}` has type {got}, expected {expected}.',
} as const;

/** The id of a model provider message. */
export type ModelMessageId = keyof typeof MODEL_MESSAGES;

registerMessages('model', MODEL_MESSAGES);
