/**
 * The service's second entry: utilities the hosts (the CLI, the language server, the MCP server,
 * the Node hosts, the scripts and tests) share with the service but that are not the language
 * service itself. The front door (`index.ts`) is the language service factory, the functions of
 * whole contracts and their types (ARCHITECTURE.md, "Entry points").
 */
export { Lru } from './util/lru.ts';
export { sha256Hex } from './util/sha256.ts';
export { escapeHtml } from './run/trace/runPage.ts';
export { displayWidth, padEndDisplay, alignColumns, wrapDisplay } from './text/width.ts';
export { englishMessages, englishTemplate, duplicateMessageIds, registeredMessageSets, registerMessages, MESSAGE_SET_NAMES } from './l10n/registry.ts';
export { recheckAnalyzer, analyzeWithRecheck, memoised, RECHECK_ANALYZER_ID } from './workspace/regexAnalysis.ts';
