/**
 * Every user-visible string of the dry run (issue 4; translated by id in issue 6): outcome codes
 * with their message templates and docs, snapshot diagnostics, timeline and report labels, and the
 * phrases of the generated system prompt. One whole template per message, `{name}` placeholders
 * filled by `runMessage` (runMessage.ts), registered as `run.<id>` in l10n/catalogues.ts.
 */

/** How a run ended. */
export type OutcomeStatus = 'success' | 'fallback' | 'failure' | 'cancelled';

/** An outcome code's entry: its status when no FAILURE_PROTOCOL entry changes it, and its docs. */
export interface OutcomeCodeSpec {
  readonly status: OutcomeStatus;
  /** Where in the pipeline it arises (docs/dry-run.md). */
  readonly stage: 'boot' | 'retrieval' | 'loop' | 'tools' | 'budgets' | 'verify' | 'human' | 'protocol' | 'model' | 'host';
  /** One line for docs and `--help`. */
  readonly summary: string;
  /** The message template (`outcome.<CODE>`); variants are `outcome.<CODE>.<variant>` in MESSAGES. */
  readonly message: string;
}

/** The outcome codes (brief §5; issue 4 item 2). Stable: snapshots expect them by name. */
export const OUTCOME_CODES = {
  OK: { status: 'success', stage: 'verify', summary: 'The final answer passed every check.', message: 'The answer passed every check after {steps} model steps.' },
  CONTRACT_NOT_RUNNABLE: { status: 'failure', stage: 'boot', summary: 'The file is not a contract, or has nothing to run.', message: 'The file is not a runnable contract: {reason}.' },
  TRIGGER_NOT_MATCHED: { status: 'failure', stage: 'boot', summary: 'No TRIGGER intent pattern matches the query.', message: 'No intent pattern of TRIGGER matches the query.' },
  ENTITY_MISSING: { status: 'failure', stage: 'boot', summary: 'A required entity could not be extracted from the query.', message: 'The required entity {entity} could not be extracted from the query.' },
  MEMORY_UNAVAILABLE: { status: 'failure', stage: 'boot', summary: 'A required memory pool is unavailable (or absent from the snapshot).', message: 'The required pool {pool} is unavailable: {reason}.' },
  MEMORY_STALE: { status: 'failure', stage: 'boot', summary: 'A required memory pool is stale (its status, or MEMORY_FRESHNESS against the snapshot clock).', message: 'The required pool {pool} is stale: {reason}.' },
  INVALID_INPUT: { status: 'failure', stage: 'tools', summary: 'The model kept calling a tool with arguments that do not match its input_schema.', message: 'The model called {tool} with invalid arguments {count} times in a row; last: {detail}.' },
  UNKNOWN_TOOL: { status: 'failure', stage: 'tools', summary: 'The model kept calling a tool that TOOLS does not declare.', message: 'The model called {tool}, which TOOLS does not declare, {count} times in a row.' },
  TOOL_NOT_MOCKED: { status: 'failure', stage: 'tools', summary: 'The snapshot has no mock that answers a tool call.', message: 'The snapshot has no mock of {tool} that matches the arguments {arguments}.' },
  TOOL_ERROR: { status: 'failure', stage: 'tools', summary: 'A tool kept failing.', message: '{tool} failed {count} times in a row; last error: {detail}.' },
  TOOL_TIMEOUT: { status: 'failure', stage: 'tools', summary: 'A tool kept exceeding its timeout.', message: '{tool} exceeded its timeout of {limit} ms {count} times in a row.' },
  TOOL_OUTPUT_INVALID: { status: 'failure', stage: 'tools', summary: 'A tool kept returning output that does not match its output_schema.', message: '{tool} returned output that does not match its output_schema {count} times in a row; last: {detail}.' },
  CIRCUIT_OPEN: { status: 'failure', stage: 'tools', summary: 'The model kept calling a tool whose circuit breaker is open.', message: 'The model called {tool} {count} times in a row while its circuit breaker was open.' },
  BUDGET_EXCEEDED: { status: 'failure', stage: 'budgets', summary: 'A budget ran out: steps, tokens or time.', message: 'A budget ran out.' },
  LOOP_DETECTED: { status: 'failure', stage: 'loop', summary: 'The model repeated the same tool call with the same arguments.', message: 'The model called {tool} with the same arguments {count} times: stopped as a loop.' },
  OUTPUT_FORMAT_INVALID: { status: 'failure', stage: 'verify', summary: 'The final answer is not in the format CONSTRAINTS asks for.', message: 'The final answer is not valid {format}: {detail}.' },
  OUTPUT_SCHEMA_INVALID: { status: 'failure', stage: 'verify', summary: 'The final answer does not match OUTPUT_SCHEMA or the output_format schema.', message: 'The final answer does not match {schema}: {detail}.' },
  SAFETY_VIOLATION: { status: 'failure', stage: 'verify', summary: 'The final answer breaks a safety guard whose check is false.', message: 'The final answer breaks the safety guard "{rule}": {check} is false.' },
  HUMAN_REJECTED: { status: 'failure', stage: 'human', summary: 'A human rejected at a HUMAN_IN_THE_LOOP pause or a tool approval.', message: 'A human rejected "{subject}".' },
  HUMAN_TIMEOUT: { status: 'failure', stage: 'human', summary: 'Nobody answered a pause within its SLA: no action means reject.', message: 'Nobody answered "{subject}" within {sla}: no action means reject.' },
  ESCALATED: { status: 'failure', stage: 'human', summary: 'Nobody answered a pause within its SLA and the row says escalate.', message: 'Nobody answered "{subject}" within {sla}: escalated.' },
  CONDITION_FIRED: { status: 'failure', stage: 'protocol', summary: 'A FAILURE_PROTOCOL condition fired (by name, or its expression is true) and its entry ended the run.', message: 'The FAILURE_PROTOCOL condition "{condition}" applies.' },
  MODEL_UNAVAILABLE: { status: 'failure', stage: 'model', summary: 'The model provider could not be reached.', message: 'The model {provider} is unavailable: {detail}.' },
  MODEL_TIMEOUT: { status: 'failure', stage: 'model', summary: 'The model provider did not answer in time.', message: 'The model {provider} did not answer in time: {detail}.' },
  MODEL_PROTOCOL_ERROR: { status: 'failure', stage: 'model', summary: 'The model answered something the run cannot use (or the script ran out of steps).', message: 'The model {provider} answered something unusable: {detail}.' },
  CANCELLED: { status: 'cancelled', stage: 'host', summary: 'The run was cancelled by its host.', message: 'The run was cancelled.' },
} as const satisfies Record<string, OutcomeCodeSpec>;

/** An outcome code. */
export type OutcomeCode = keyof typeof OUTCOME_CODES;

/** True when `code` is an outcome code. */
export function isOutcomeCode(code: string): code is OutcomeCode {
  return Object.prototype.hasOwnProperty.call(OUTCOME_CODES, code);
}

/**
 * Every other message, by id. Ids are stable: issue 6 translates them. Prefixes: `outcome.` (variants
 * of outcome messages), `snapshot.` (snapshot diagnostics), `timeline.` (the run's readable timeline,
 * one template per event kind), `feedback.` (what the model is told), `prompt.` (the generated system
 * prompt), `eval.` and `trace.` (CLI reports).
 */
export const MESSAGES: Readonly<Record<string, string>> = {
  'outcome.BUDGET_EXCEEDED.steps': 'The run used all {limit} steps of its step budget without a verified answer.',
  'outcome.BUDGET_EXCEEDED.tokens': 'The run used {used} tokens, over its token budget of {limit}.',
  'outcome.BUDGET_EXCEEDED.time': 'The run took {used} ms, over its timeout of {limit} ms.',
  'outcome.protocol': '{message} FAILURE_PROTOCOL entry "{condition}" applied: error code {errorCode}.',

  'snapshot.syntax': '{detail}',
  'snapshot.duplicate-key': 'The key "{key}" appears twice.',
  'snapshot.schema': '{path}: {detail}.',
  'snapshot.empty': 'The snapshot is empty: it needs at least a queries list.',
  'snapshot.too-large': 'The snapshot is {size} bytes, more than the {limit} bytes a snapshot may have.',
  'snapshot.step-kind': 'A model step needs exactly one of call, calls or final.',
  'snapshot.arguments-both': 'Give arguments or raw_arguments, not both.',
  'snapshot.duplicate-query': 'The query id "{id}" is used twice.',
  'snapshot.too-many-steps': 'The model script expands to more than {max} steps; the rest are ignored.',
  'snapshot.no-now': 'The snapshot has no now: pool freshness will depend on the day the run happens.',
  'snapshot.unknown-code': 'There is no outcome code "{code}". Known codes: {known}.',
  'snapshot.unknown-tool': 'TOOLS declares no tool "{name}".',
  'snapshot.unknown-pool': 'The contract uses no pool "{name}" (MEMORY_POOLS, MEMORY_REQUIREMENTS).',
  'snapshot.unknown-decision-target': '"{name}" is neither a HUMAN_IN_THE_LOOP scenario, a tool nor a FAILURE_PROTOCOL error code.',
  'snapshot.unknown-condition': '"{name}" names no FAILURE_PROTOCOL condition or error code, nor a HUMAN_IN_THE_LOOP scenario or condition.',
  'snapshot.unknown-error-code': 'FAILURE_PROTOCOL has no error code "{code}".',

  'feedback.invalid-json': 'INVALID_INPUT: the arguments of {tool} are not valid JSON ({detail}). Send a JSON object that matches its input_schema.',
  'feedback.invalid-input': 'INVALID_INPUT: the arguments of {tool} do not match its input_schema. Expected: {expected}. Got: {got}.',
  'feedback.unknown-tool': 'UNKNOWN_TOOL: there is no tool {tool}. Available tools: {tools}.',
  'feedback.tool-error': 'TOOL_ERROR: {tool} failed: {detail}',
  'feedback.tool-timeout': 'TOOL_TIMEOUT: {tool} did not answer within {limit} ms. Retry, or try another way.',
  'feedback.output-invalid': 'TOOL_OUTPUT_INVALID: the result of {tool} does not match its output_schema ({detail}); it was marked invalid.',
  'feedback.circuit-open': 'CIRCUIT_OPEN: {tool} failed {failures} times in a row and is out of the registry for {cooldown} ms.',
  'feedback.identical': 'Note: this result is identical to the previous call of {tool} with the same arguments: there is no new information on this branch.',
  'feedback.truncated': '[truncated: {shown} of {total} characters]',
  'feedback.format-retry': 'Your answer is not valid {format} ({detail}). Answer again with only {format}, no other text.',
  'feedback.schema-retry': 'Your answer does not match the output schema: {detail}. Answer again with a corrected answer only.',

  'timeline.task_start': 'run {runId}: {contract}, query "{query}"',
  'timeline.task_start.text': 'query: {text}',
  'timeline.trigger_match.success': 'matched {pattern}',
  'timeline.trigger_match.failure': 'no intent pattern matches ({count} tried)',
  'timeline.trigger_match.failure-unusable': 'no intent pattern matches ({count} tried; not usable on RE2, never matched: {unusable})',
  'timeline.trigger_match.skipped': 'TRIGGER has no intent patterns: every query is taken',
  'timeline.entity_extraction.success': '{entity} = {value} ({via})',
  'timeline.entity_extraction.failure': '{entity} not found in the query',
  'timeline.memory_check.success': '{pool}: healthy, updated {updatedAt}',
  'timeline.memory_check.failure': '{pool}: {reason}',
  'timeline.memory_check.skipped': '{pool} (optional): {reason}; continuing without it',
  'timeline.memory_retrieval.success': '{pool}: {returned} of {matched} matching records (of {total}), filters {filters}, newest first, top {topK}, weight {weight}, {ms} ms',
  'timeline.memory_retrieval.skipped': '{pool}: skipped, {reason}',
  'timeline.context_assembly': 'context: {records} records from {pools} pools, {chars} characters',
  'timeline.prompt': 'system prompt: {chars} characters, {tools} tools (full text in the trace)',
  'timeline.model_step.tool_calls': 'step {step}: model calls {calls} ({tokens} tokens)',
  'timeline.model_step.final': 'step {step}: model answers ({tokens} tokens)',
  'timeline.tool_call': '{tool} {arguments}',
  'timeline.validation.success': '{subject}: {check} passed',
  'timeline.validation.invalid': '{subject}: {check} failed: {detail}',
  'timeline.validation.unknown': '{subject}: {check} unknown ({detail})',
  'timeline.validation.skipped': '{subject}: {check} not checkable in the dry run',
  'timeline.tool_result.success': '{tool} → {result}',
  'timeline.tool_result.failure': '{tool} → {code}: {detail}',
  'timeline.tool_result.timeout': '{tool} → TOOL_TIMEOUT after {ms} ms (limit {limit} ms)',
  'timeline.tool_result.invalid': '{tool} → {code}: {detail}',
  'timeline.condition': 'condition "{condition}" {state}',
  'timeline.human_input': 'paused for a human: {subject} ({reason}; SLA {sla})',
  'timeline.human_input.no-sla': 'paused for a human: {subject} ({reason})',
  'timeline.human_response': '{decision}',
  'timeline.protocol': 'FAILURE_PROTOCOL "{condition}": {actions}',
  'timeline.alert': 'alert {channel} severity {severity}',
  'timeline.final_output': 'final answer: {preview}',
  'timeline.task_end': '{status} {code}: {message}',
  'timeline.task_end.stats': 'steps {steps} · tokens {tokens} · tool calls {tools} · human decisions {humans} · simulated time {elapsed} ms',
  'timeline.fork': 'forked from {from} at {at}',
  'timeline.clause': 'clause: {location}',

  'label.trigger': 'TRIGGER',
  'label.memory': 'MEMORY',
  'label.prompt': 'PROMPT',
  'label.step': 'STEP',
  'label.tool': 'TOOL',
  'label.validation': 'CHECK',
  'label.human': 'HUMAN',
  'label.protocol': 'PROTOCOL',
  'label.output': 'OUTPUT',
  'label.outcome': 'OUTCOME',
  'label.run': 'RUN',

  'state.true': 'is true',
  'state.false': 'is false',
  'state.unknown': 'is unknown (missing: {missing})',
  'state.fired': 'fired by name',
  'via.pattern': 'extraction pattern',
  'via.intent': 'named group of an intent pattern',
  'via.given': 'given by the snapshot',
  'reason.tool-approval': 'the tool requires approval',
  'reason.hitl': 'HUMAN_IN_THE_LOOP condition {condition}',
  'reason.override': 'FAILURE_PROTOCOL waits for an override (max {wait})',
  'reason.absent': 'not in the snapshot',
  'reason.status-unavailable': 'the snapshot marks it unavailable',
  'reason.status-stale': 'the snapshot marks it stale',
  'reason.freshness': 'last updated {updatedAt}, not since {cutoff} (MEMORY_FRESHNESS: stale after {staleAfter})',
  'reason.unresolved-filter': 'a filter needs {entity}, which was not extracted',
  'check.input-schema': 'input_schema',
  'check.output-schema': 'output_schema',
  'check.format': 'output_format {format}',
  'check.schema': 'schema of {source}',
  'check.guard': 'safety guard "{rule}"',
  'check.language': 'language {language}',
  'check.coerced': 'the answer was not pure {format}; its first {format} value was used',

  'prompt.identity': 'You are {name}.',
  'prompt.mandate': 'Mandate: {text}',
  'prompt.goal': 'Goal: {text}',
  'prompt.boundaries': 'Hard boundaries:',
  'prompt.missing': 'When information is missing: {text}',
  'prompt.may': 'You may do directly: {text}',
  'prompt.confirm': 'Ask for confirmation before: {text}',
  'prompt.output-standard': 'Output standard: {text}',
  'prompt.memory': 'Memory retrieved for this request (pools by weight; records newest first):',
  'prompt.memory-pool': 'From {pool} (weight {weight}), {count} records:',
  'prompt.memory-none': 'No memory was retrieved for this request.',
  'prompt.tools': 'Tools you may call (arguments must match each input schema):',
  'prompt.tool': '- {name}: {description}',
  'prompt.tool-when': '  Use when: {text}',
  'prompt.tool-not': '  Do not use when: {text}',
  'prompt.tool-approval': '  Each call needs human approval first.',
  'prompt.constraints': 'Constraints on your answer:',
  'prompt.format': '- Answer in {format} only.',
  'prompt.guard': '- {rule}',
  'prompt.language': '- Write in {language}.',
  'prompt.schema': 'Your final answer must match this JSON Schema:',
  'prompt.budgets': 'You have at most {steps} steps and {tokens} tokens.',
  'prompt.entities': 'Entities extracted from the request: {entities}.',

  'eval.pass': 'PASS',
  'eval.fail': 'FAIL',
  'eval.query': '{mark} {snapshot} › {query}: {status} {code}{errorCode}',
  'eval.mismatch': 'expected {field} {expected}, got {actual}',
  'eval.summary': '{passed} of {total} queries met their expectations ({failed} failed).',
  'eval.figures': 'success rate {successRate} · average rounds {rounds} · tokens {tokens} (average {avgTokens}) · human-intervention rate {humanRate}',
  'eval.drift': 'path drift against {previous}: {changed} of {compared} queries took another path (mean distance {distance})',
  'eval.drift-none': 'path drift: no previous eval run under {runs} to compare with',
  'eval.drift-query': '  {snapshot} › {query}: {before}  ⇒  {after}',
  'eval.no-snapshots': 'No snapshot files (*.snapshot.yaml, *.snapshot.yml, *.snapshot.json) found in {paths}.',
  'eval.runs': 'traces and report: {dir}',
  'run.trace': 'trace: {path}',
  'run.progress': '{done}/{total} {snapshot} › {query}',

  'trace.intact': '{file}: {count} events, chain and checksums intact.',
  'trace.complete': 'The run is complete (ends with task_end).',
  'trace.incomplete': 'The run is incomplete: no task_end event (interrupted?).',
  'trace.torn': 'line {line}: torn last line ({bytes} bytes without a line end), left by an interrupted write; the events before it are intact.',
  'trace.bad-json': 'line {line}: not a JSON event ({detail}).',
  'trace.bad-event': 'line {line}: not a trace event: {detail}.',
  'trace.bad-checksum': 'line {line}: event {id} has checksum {actual}, expected {expected}: its content or an earlier event was changed.',
  'trace.bad-prev': 'line {line}: event {id} points to previous event {prev}, expected {expected}.',
  'trace.duplicate-id': 'line {line}: event id {id} is used twice.',
  'view.running': 'running…',
  'view.cancelled': 'The run was cancelled.',
  'view.progress': '{query}: {events} events',
  'view.waitingForHuman': 'waiting for your decision',
  'view.humanQuestion': 'The agent waits for a human decision on "{subject}" ({reason}). Approve, or reject?',
  'view.summary': '{passed} of {total} queries as expected (their expectations met, or success when they state none).',
  'view.lens.run': '▶ Run agent',
  'view.lens.exercised': 'exercised by {count, plural, one {# snapshot query} other {# snapshot queries}}: {queries}',
  'view.snapshotUnusable': 'the snapshot cannot be run',
  'view.contractNotOpen': '{uri} is not open in the editor.',
  'trace.empty': '{file}: no events.',
  'trace.replay-same': 'replay of {file}: {count} events, the same as the original.',
  'trace.replay-differs': 'replay of {file}: differs at event {index} ({id}): {detail}.',
  'trace.replay-input-changed': '{what} changed since the run (sha256 {expected}, now {actual}).',
  'trace.fork': 'forked {file} at {at} into {path}.',
  'trace.unknown-event': 'no event {id} in {file}.',
};

/** The whole catalogue: every message above and each outcome code's message as `outcome.<CODE>`. */
export const RUN_MESSAGES: Readonly<Record<string, string>> = {
  ...MESSAGES,
  ...Object.fromEntries(Object.entries(OUTCOME_CODES).map(([code, spec]) => [`outcome.${code}`, spec.message])),
};
