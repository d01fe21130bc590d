/**
 * The parser's work, counted: what remark, the section scanner and the YAML reader were given.
 * Tests bound these counts on hostile input instead of timing it (a loaded machine makes timings
 * flaky; test/robustness.test.ts), and `npm run bench` reports the work per table row. Plain
 * counters in this thread, only ever incremented; a reader takes the difference of two readings.
 */
export const parseWork = {
  /** Characters handed to remark, and its calls. */
  markdownChars: 0,
  markdownCalls: 0,
  /** Characters read by the section scanner. */
  scannedChars: 0,
  /** Characters handed to the YAML parser (cached blocks not counted). */
  yamlChars: 0,
  /** YAML nodes converted to data, aliases expanded (bounded per block by yamlBlock.ts). */
  yamlNodes: 0,
  /** Aliases resolved, and anchors compared to resolve them. */
  yamlAliases: 0,
  yamlAnchorChecks: 0,
};

export type ParseWork = typeof parseWork;
