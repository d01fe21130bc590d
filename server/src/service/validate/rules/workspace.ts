/**
 * Rules across contracts (docs/workspace.md): each compares this contract's digest with the
 * digests of the workspace's other contracts (`WorkspaceFacts.contracts`) and reports on this
 * contract, pointing at the other one. They stay quiet when a side does not state the value
 * compared: a miss is cheaper than a false alarm.
 */
import type { Finding, RelatedFinding } from '../../model/types.ts';
import type { Range } from '../../types.ts';
import type { Rule } from '../rule.ts';
import { digestOf, resourceKey, sameText, shareSomething, type ContractDigest, type DigestErrorCode } from '../../model/digest.ts';

const SHA_A = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SHA_B = '3f9a1c0d4b2e8f7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b';
const head = (name: string, version = '1.0.0') => `---\ncontract: true\nname: ${name}\nversion: ${version}\n---\n`;
const other = (body: string, name = 'billing', version = '1.0.0') => ({ 'billing/AGENTS.md': `${head(name, version)}\n${body}` });

/** Up to this many related locations per finding. */
const MAX_RELATED = 10;

function related(hits: readonly { o: ContractDigest; range: Range }[]): RelatedFinding[] {
  return hits.slice(0, MAX_RELATED).map(({ o, range }) => ({ uri: o.uri, range, messageId: 'related.inFile', args: { file: o.path } }));
}

const short = (sha: string) => `${sha.slice(0, 12)}…`;
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

export const resourcePinDrift: Rule = {
  code: 'resource-pin-drift',
  severity: 'error',
  summary: 'Contracts that pin the same resource file pin the same SHA-256.',
  description: 'The classic drift: two agents pinned to different versions of the same whitelist gave contradictory answers about one vendor. When two contracts list the same file in RESOURCES (paths compared after removing `./` and a configured resource root) with different SHA-256 values, at least one of them is pinned to a version that is not in use. Update the stale pin, or give the two versions different file names.',
  source: 'docs/workspace.md, "Cross-contract rules"',
  needsWorkspace: true,
  messages: { default: 'Resource `{name}` is pinned to SHA-256 {sha} here but to {other} in {file}.' },
  examples: {
    bad: `${head('procurement')}\n## RESOURCES\n\n| Path | SHA-256 |\n|---|---|\n| \`vendor_whitelist.csv\` | ${SHA_A} |\n`,
    good: `${head('procurement')}\n## RESOURCES\n\n| Path | SHA-256 |\n|---|---|\n| \`vendor_whitelist.csv\` | ${SHA_B} |\n`,
    workspace: { files: other(`## RESOURCES\n\n| Path | SHA-256 |\n|---|---|\n| \`configs/resources/vendor_whitelist.csv\` | ${SHA_B} |\n`) },
    at: `⟦e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    const others = facts.contracts ?? [];
    if (others.length === 0) return;
    const roots = facts.config.resourceRoots;
    for (const r of digestOf(model).resources) {
      const key = resourceKey(r.path, roots);
      const hits = others.flatMap((o) => o.resources.filter((x) => x.sha256 !== r.sha256 && resourceKey(x.path, roots) === key).map((x) => ({ o, range: x.range, sha: x.sha256 })));
      const first = hits[0];
      if (first) yield { code: 'resource-pin-drift', range: r.range, args: { name: r.path, sha: short(r.sha256), other: short(first.sha), file: first.o.path }, related: related(hits) };
    }
  },
};

export const sharedPoolMismatch: Rule = {
  code: 'shared-pool-mismatch',
  severity: 'warning',
  summary: 'A pool declared by several contracts has the same metadata fields and lifecycle in each.',
  description: 'Agents share memory pools. A pool registered in MEMORY_POOLS by two contracts is one store: if one contract says its entries carry `device_id, error_code` and the other `device_id, timestamp`, the filters of one of them match nothing; if their lifecycles differ, one agent expects records the other lets expire. Metadata fields are compared as sets, lifecycles as text (case, spaces and quotes ignored); a side that does not state the field is not compared.',
  source: 'docs/workspace.md, "Cross-contract rules"',
  needsWorkspace: true,
  messages: {
    default: 'Shared pool `{pool}` has metadata fields {here} here but {there} in {file}.',
    lifecycle: 'Shared pool `{pool}` has lifecycle “{here}” here but “{there}” in {file}.',
  },
  examples: {
    bad: `${head('diagnosis')}\n## MEMORY_POOLS\n\n### device_log\n\n- **Lifecycle**: 90 days\n- **Metadata**: \`device_id\`, \`error_code\`\n`,
    good: `${head('diagnosis')}\n## MEMORY_POOLS\n\n### device_log\n\n- **Lifecycle**: 90 days\n- **Metadata**: \`error_code\`, \`device_id\`, \`timestamp\`\n`,
    workspace: { files: other('## MEMORY_POOLS\n\n### device_log\n\n- **Lifecycle**: 90 Days.\n- **Metadata**: `device_id`, `error_code`, `timestamp`\n') },
    at: `⟦\`device_id\`, \`error_code\`⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    const others = facts.contracts ?? [];
    if (others.length === 0) return;
    for (const p of digestOf(model).pools) {
      const same = others.flatMap((o) => o.pools.filter((q) => q.name === p.name).map((q) => ({ o, q })));
      const meta = same.filter(({ q }) => p.metadata && q.metadata && p.metadata.join('\0') !== q.metadata.join('\0'));
      if (p.metadata && meta[0]) {
        const { o, q } = meta[0];
        yield { code: 'shared-pool-mismatch', range: p.metadataRange ?? p.range, args: { pool: p.name, here: p.metadata.join(', '), there: q.metadata!.join(', '), file: o.path }, related: related(meta.map(({ o, q }) => ({ o, range: q.metadataRange ?? q.range }))) };
      }
      const life = same.filter(({ q }) => p.lifecycle && q.lifecycle && sameText(p.lifecycle) !== sameText(q.lifecycle));
      if (p.lifecycle && life[0]) {
        const { o, q } = life[0];
        yield { code: 'shared-pool-mismatch', variant: 'lifecycle', range: p.lifecycleRange ?? p.range, args: { pool: p.name, here: clip(p.lifecycle), there: clip(q.lifecycle!), file: o.path }, related: related(life.map(({ o, q }) => ({ o, range: q.lifecycleRange ?? q.range }))) };
      }
    }
  },
};

export const agentNameConflict: Rule = {
  code: 'agent-name-conflict',
  severity: 'warning',
  summary: 'Each agent of the workspace is declared by one contract.',
  description: 'The agent\'s name (AGENT_IDENTITY `name`, else the front matter\'s `name`) is how other contracts, Write By roles and reports refer to it. Two contracts that declare the same agent make every such reference ambiguous; when their front-matter versions also differ, two versions of one agent are live at once. Rename one agent, or remove the stale copy.',
  source: 'docs/workspace.md, "Cross-contract rules"',
  needsWorkspace: true,
  messages: {
    default: 'Agent `{name}` is also declared by {file}.',
    versions: 'Agent `{name}` is declared at version {version} here and at version {otherVersion} in {file}.',
  },
  examples: {
    bad: `${head('procurement', '2.0.0')}\n## AGENT_IDENTITY\n\n- **Name**: \`ProcurementAnalyzer\`\n`,
    good: `${head('procurement', '2.0.0')}\n## AGENT_IDENTITY\n\n- **Name**: \`ProcurementPlanner\`\n`,
    workspace: { files: other('## AGENT_IDENTITY\n\n- **Name**: `ProcurementAnalyzer`\n', 'procurement_legacy', '1.4.0') },
    at: `⟦\`ProcurementAnalyzer\`⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    if (!facts.contracts?.length) return;
    const mine = digestOf(model);
    if (!mine.agent) return;
    const hits = facts.contracts.filter((o) => o.agent?.name === mine.agent!.name);
    const first = hits[0];
    if (!first) return;
    const rel = related(hits.map((o) => ({ o, range: o.agent!.range })));
    const differs = hits.find((o) => o.version && mine.version && o.version.value !== mine.version.value);
    if (differs) yield { code: 'agent-name-conflict', variant: 'versions', range: mine.agent.range, args: { name: mine.agent.name, version: mine.version!.value, otherVersion: differs.version!.value, file: differs.path }, related: rel };
    else yield { code: 'agent-name-conflict', range: mine.agent.range, args: { name: mine.agent.name, file: first.path }, related: rel };
  },
};

/** Codes used once in their contract: a code used twice there is `failure-code-duplicate`'s finding. */
function uniqueCodes(codes: readonly DigestErrorCode[]): DigestErrorCode[] {
  const count = new Map<string, number>();
  for (const c of codes) count.set(c.code, (count.get(c.code) ?? 0) + 1);
  return codes.filter((c) => count.get(c.code) === 1);
}

export const errorCodeReused: Rule = {
  code: 'error-code-reused',
  severity: 'warning',
  summary: 'An error code means the same failure in every contract that returns it.',
  description: 'Callers and dashboards read an error code such as `URG001` without knowing which agent returned it. When two contracts that work on the same things (a pool, a pinned resource or a tool of the same name) return the same code from FAILURE_PROTOCOL entries with different conditions, one code has two meanings for the same consumers. Conditions are compared as text, ignoring case, spaces, quotes and end punctuation; a code used twice within one contract is left to `failure-code-duplicate`, and contracts that share nothing may number their codes independently. Give one of the failures its own code.',
  source: 'docs/workspace.md, "Cross-contract rules"',
  needsWorkspace: true,
  messages: { default: 'Error code `{code}` is returned here for “{meaning}” but in {file} for “{otherMeaning}”.' },
  examples: {
    bad: `${head('procurement')}\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: vendor_catalog\n\`\`\`\n\n## FAILURE_PROTOCOL\n\n- **If the vendor is not whitelisted**: → Stop → Return error_code \`VND001\`\n`,
    good: `${head('procurement')}\n## MEMORY_REQUIREMENTS\n\n\`\`\`yaml\n- pool: vendor_catalog\n\`\`\`\n\n## FAILURE_PROTOCOL\n\n- **If the vendor is not whitelisted**: → Stop → Return error_code \`VND002\`\n`,
    workspace: { files: other('## MEMORY_REQUIREMENTS\n\n```yaml\n- pool: vendor_catalog\n```\n\n## FAILURE_PROTOCOL\n\n- **If the vendor API times out**: → Retry once → Return error_code `VND001`\n') },
    at: `⟦Return error_code \`VND001\`⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    if (!facts.contracts?.length) return;
    const mine = digestOf(model);
    const others = facts.contracts.filter((o) => shareSomething(mine, o, facts.config.resourceRoots));
    for (const c of uniqueCodes(mine.errorCodes)) {
      const hits = others.flatMap((o) => uniqueCodes(o.errorCodes).filter((x) => x.code === c.code && sameText(x.meaning) !== sameText(c.meaning)).map((x) => ({ o, range: x.range, meaning: x.meaning })));
      const first = hits[0];
      if (first) yield { code: 'error-code-reused', range: c.range, args: { code: c.code, meaning: clip(c.meaning), otherMeaning: clip(first.meaning), file: first.o.path }, related: related(hits) };
    }
  },
};

export const sharedPoolWriterUnauthorised: Rule = {
  code: 'shared-pool-writer-unauthorised',
  severity: 'warning',
  summary: 'Roles that write a shared pool in another contract are authorised by this one.',
  description: 'A pool this contract declares or requires, and that another contract registers as shared, is written by that contract\'s `Write By` roles (its MEMORY_CONTRACT). Entries this agent reads may then come from a role its own AGENT_IDENTITY Authorized Writers do not list. List the role here (if its writes are trusted), or stop sharing the pool. The rule runs only when this contract lists Authorized Writers; the config\'s `roles` count as authorised everywhere.',
  source: 'docs/workspace.md, "Cross-contract rules"',
  needsWorkspace: true,
  messages: { default: 'Shared pool `{pool}` is written by role `{role}` in {file}, which this contract\'s Authorized Writers do not list.' },
  examples: {
    bad: `${head('diagnosis')}\n## AGENT_IDENTITY\n\n- **Name**: \`DeviceDoctor\`\n- **Authorized Writers**: System Auto\n\n## MEMORY_POOLS\n\n### device_log\n\n- **Content**: Fault logs\n`,
    good: `${head('diagnosis')}\n## AGENT_IDENTITY\n\n- **Name**: \`DeviceDoctor\`\n- **Authorized Writers**: System Auto, FieldTech\n\n## MEMORY_POOLS\n\n### device_log\n\n- **Content**: Fault logs\n`,
    workspace: {
      files: other('## AGENT_IDENTITY\n\n- **Name**: `RepairLogger`\n- **Authorized Writers**: FieldTech\n\n## MEMORY_CONTRACT\n\n| Layer | Read By | Write By | Retention |\n|---|---|---|---|\n| Raw Log | All | FieldTech | 90 days |\n\n## MEMORY_POOLS\n\n### device_log\n\n- **Content**: Fault logs\n- **Shared**: yes\n'),
    },
    at: `⟦device_log⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    if (!facts.contracts?.length) return;
    const mine = digestOf(model);
    if (!mine.authorised) return;
    const allowed = new Set([...mine.authorised, ...facts.config.roles]);
    const pools = new Map([...mine.requiredPools, ...mine.pools].map((p) => [p.name, p.range]));
    const seen = new Set<string>();
    for (const o of facts.contracts) {
      for (const q of o.pools) {
        const range = pools.get(q.name);
        if (!range || !q.shared) continue;
        for (const w of o.writers) {
          const key = `${q.name}\0${w.name}`;
          if (allowed.has(w.name) || seen.has(key)) continue;
          seen.add(key);
          yield { code: 'shared-pool-writer-unauthorised', range, args: { pool: q.name, role: w.name, file: o.path }, related: related([{ o, range: w.range }]) };
        }
      }
    }
  },
};

export const sideEffectToolUngated: Rule = {
  code: 'side-effect-tool-ungated',
  severity: 'warning',
  summary: 'A tool with side effects declared by several contracts is gated in each of them.',
  description: 'A tool with `write` or `external` side effects is gated when its declaration sets `requires_approval: true`, BUDGETS `requires_approval` lists it, or a HUMAN_IN_THE_LOOP row names it in backticks. When several contracts declare the same tool, an agent whose contract does not gate it can make the call the others stop for. Add an approval flag or a HUMAN_IN_THE_LOOP row here; the message says whether another contract already gates the tool.',
  source: 'docs/workspace.md, "Cross-contract rules"',
  needsWorkspace: true,
  messages: {
    default: 'Tool `{name}` has side effects and none of the {count} contracts that declare it gates it with an approval requirement or a HUMAN_IN_THE_LOOP row.',
    gatedElsewhere: 'Tool `{name}` has side effects: {file} gates it with an approval requirement or a HUMAN_IN_THE_LOOP row, this contract does not.',
  },
  examples: {
    bad: `${head('procurement')}\n## TOOLS\n\n### send_payment\n\n- **Side Effects**: external\n- **Idempotent**: yes\n`,
    good: `${head('procurement')}\n## TOOLS\n\n### send_payment\n\n- **Side Effects**: external\n- **Idempotent**: yes\n- **Requires Approval**: yes\n`,
    workspace: { files: other('## TOOLS\n\n### send_payment\n\n- **Side Effects**: external\n- **Idempotent**: yes\n- **Requires Approval**: yes\n') },
    at: `⟦send_payment⟧`,
  },
  *check({ model, facts }): Generator<Finding> {
    if (!facts.contracts?.length) return;
    for (const t of digestOf(model).sideEffectTools) {
      if (t.gated) continue;
      const hits = facts.contracts.flatMap((o) => o.sideEffectTools.filter((x) => x.name === t.name).map((x) => ({ o, range: x.range, gated: x.gated })));
      if (hits.length === 0) continue;
      const gate = hits.find((h) => h.gated);
      if (gate) yield { code: 'side-effect-tool-ungated', variant: 'gatedElsewhere', range: t.range, args: { name: t.name, file: gate.o.path }, related: related(hits.filter((h) => h.gated)) };
      else yield { code: 'side-effect-tool-ungated', range: t.range, args: { name: t.name, count: hits.length + 1 }, related: related(hits) };
    }
  },
};

export const WORKSPACE_RULES: readonly Rule[] = [resourcePinDrift, sharedPoolMismatch, agentNameConflict, errorCodeReused, sharedPoolWriterUnauthorised, sideEffectToolUngated];
