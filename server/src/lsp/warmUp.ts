import { contractSkeleton, parseContract, validateContract } from '../service/index.ts';

/** A contract that makes validation compile its schema validators. */
const COMPILE = '---\ncontract: true\nname: warm_up\nversion: 1.0.0\n---\n## TOOLS\n\n### t\n\n- **Description**: d\n';

/**
 * Work done once the server is initialised so that the first document's diagnostics do not pay
 * for it (docs/performance.md, "First diagnostics"): the schema validators are compiled, then a
 * complete contract (every section and form: bullets, tables, YAML) is parsed, validated and
 * edited once, which readies the parser and the rules (the bench's 2,000-line contract's first
 * diagnostics took about 900 ms without it, 650 with it). Each step yields to the event loop; the steps after
 * the first are skipped once a document is open, since its own diagnostics do the same work.
 */
export function warmUp(documentOpen: () => boolean): void {
  const steps = [
    () => validateContract(parseContract(COMPILE)),
    () => {
      const text = contractSkeleton({ name: 'warm_up', kind: 'acting', today: '2026-01-01' });
      const before = parseContract(text);
      validateContract(before);
      validateContract(parseContract(text.replace('## TOOLS', '## TOOLS\n\nEdited.'), before));
    },
  ];
  const run = (i: number) => {
    if (i >= steps.length || (i > 0 && documentOpen())) return;
    steps[i]!();
    setImmediate(() => run(i + 1));
  };
  setImmediate(() => run(0));
}
