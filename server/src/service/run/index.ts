/**
 * The dry run's public surface (docs/dry-run.md): snapshots, the engine, the scripted
 * LLM, the trace (events, verification, replay and fork), the timeline, eval figures and the
 * messages. Hosts (the CLI, the language server, the MCP server) import it from the service index.
 */
export type { ChatMessage, ModelProvider, ModelRequest, ModelStep, TokenUsage, ToolCall, ToolSpec } from './llm/llmProvider.ts';
export type { ModelMessageId } from './llm/llmMessages.ts';
export { resolveModelSettings, DEFAULT_MODEL_SETTINGS, MODEL_SETTINGS_SCHEMA, type ResolvedModelSettings } from './llm/llmSettings.ts';
export { ModelError } from './llm/llmProvider.ts';
export type { Expectation, HumanDecision, PoolState, ScriptStep, Snapshot, SnapshotQuery, ToolMock } from './snapshot/snapshot.ts';
export { snapshotNames, type SnapshotName } from './snapshot/snapshotNames.ts';
export { applySnapshotSets, blameSnapshotSets, SnapshotSetError } from './snapshot/snapshotEdit.ts';
export { recordedScript, withRecordedScript } from './snapshot/record.ts';
export { readSnapshot, validateSnapshot, MAX_SNAPSHOT_CHARS, type SnapshotRead } from './snapshot/snapshotValidate.ts';
export { runQuery, scriptedDecisions, type Clause, type Decide, type HumanAnswer, type HumanRequest, type Outcome, type RunOptions, type RunResult, type RunStats } from './engine/engine.ts';
export { createScriptedModel, SCRIPTED_PROVIDER_ID } from './llm/scriptedLlm.ts';
export { estimateTokens } from './llm/estimateTokens.ts';
export { EVENT_STATUSES, EVENT_TYPES, eventLine, type EventSink, type EventStatus, type EventType, type TraceEvent } from './trace/trace.ts';
export { verifyTrace, type TraceProblem, type TraceVerification } from './trace/traceVerify.ts';
export { traceSpans, type SpanAttributes, type SpanAttributeValue, type SpanData, type SpanEventData, type TraceSpansOptions } from './trace/otelSpans.ts';
export { eventsUpTo, firstDifference, forkOf, recordedDecisions, recordedProvider, stepMessages } from './trace/replay.ts';
export { describeEvent, type TimelineLine } from './trace/timeline.ts';
export { runPageHtml, type RunPageInput, type RunPageRun } from './trace/runPage.ts';
export { compareEvalRuns, passRates, type PassRate, type QueryChange, type QueryComparison } from './eval/evalCompare.ts';
export { checkExpectation, evalFigures, pathDistance, pathDrift, type EvalFigures, type Mismatch, type PathDrift, type QueryReport } from './eval/evaluate.ts';
export { MESSAGES, OUTCOME_CODES, RUN_MESSAGES, type OutcomeCode, type OutcomeStatus } from './messages.ts';
export { outcomeText, refText, runMessage, type MessageRef } from './runMessage.ts';
