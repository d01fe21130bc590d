/**
 * The service's second entry: utilities the hosts (the CLI, the language server, the MCP server,
 * the Node hosts, the scripts and tests) share with the service but that are not the language
 * service itself. The front door (`index.ts`) is the language service factory, the functions of
 * whole contracts and their types (ARCHITECTURE.md, "Entry points").
 */
import './messageSets.ts';
export { Lru } from './util/lru.ts';
export { sha256Hex } from './util/sha256.ts';
export { escapeHtml } from './run/trace/runPage.ts';
export { displayWidth, padEndDisplay, alignColumns, wrapDisplay } from './text/width.ts';
export { englishMessages, englishTemplate, duplicateMessageIds, registeredMessageSets, registerMessages, MESSAGE_SET_NAMES } from './l10n/registry.ts';
export { recheckAnalyzer, analyzeWithRecheck, analysedPatterns, RECHECK_ANALYZER_ID } from './workspace/regexAnalysis.ts';
export { decodeText } from './text/decode.ts';
export { format, type MessageArgs } from './l10n/format.ts';
export { fileErrorReason } from './l10n/fileMessages.ts';
export { localiseDiagnostic } from './l10n/diagnostics.ts';
export { resolveLang, langFromEnvironment } from './l10n/lang.ts';
export { RULES, ruleByCode } from './validate/catalogue.ts';
export { ruleDocId, ruleMessageId } from './validate/messages.ts';
export { DEFAULT_DIFF_POLICY, GUARANTEE_RULES, classify as classifyDiffRule, diffPolicyOf } from './diff/policy.ts';
export { IMPACT_RULES, BUMPS, type RuleId as DiffRuleId, type ImpactRule } from './diff/rules.ts';
export { wordDiff } from './diff/wordDiff.ts';
export { DIFF_MESSAGES, type DiffMessageId } from './diff/messages.ts';
export { diffMessage, DIFF_PREFIX } from './diff/diffMessage.ts';
export { localiseAdvice, localiseChange, localiseDiff } from './diff/localise.ts';
export { diffSectionTitle, diffSummary } from './diff/labels.ts';
