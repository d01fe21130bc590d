/**
 * A deterministic generator of realistic AGENTS.md contracts, for the benchmarks (bench/run.ts)
 * and the property tests (test/incremental.test.ts, test/robustness.test.ts).
 *
 * `generateContract(lines, seed)` returns a contract of exactly `lines` lines (each ending in
 * `\n`) in the style of docs/contract-format.md §10: YAML front matter, an H1 and preamble prose,
 * then every section in one of the three writing forms: labelled bullets with nested bullets,
 * GFM tables (MEMORY_CONTRACT, HUMAN_IN_THE_LOOP and VERSIONING & AUDIT with many rows, inline
 * code and escaped pipes in cells), fenced yaml/json blocks (TRIGGER, MEMORY_REQUIREMENTS,
 * CONSTRAINTS, TASK, OUTPUT_SCHEMA, TOOLS as `### tool_name` items with input/output schemas),
 * FAILURE_PROTOCOL entries `- **If <condition>**: → action → … → Return error_code `E001``, CJK
 * text in places, a setext H2 and a non-contract H2 now and then. Only realistic Markdown is
 * produced: fences are closed, no H2 sits inside a list or a block quote (see the report in
 * test/incremental.test.ts for the constructs where the section scanner and remark disagree).
 *
 * The same `(lines, seed)` always gives the same text: randomness comes from a seeded PRNG
 * (mulberry32), never from `Math.random`.
 *
 * The edit helpers make one-line edits like the ones a person makes while typing (change a word
 * in a table cell in the middle of the file, and so on); they return the new text and the line.
 */

/** A seeded PRNG (mulberry32): a function returning floats in [0, 1). */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const chance = (rng: Rng, p: number): boolean => rng() < p;

const VERBS = ['check', 'query', 'fetch', 'create', 'update', 'list', 'search', 'validate', 'compute', 'send', 'archive', 'lookup', 'draft', 'reserve', 'cancel', 'estimate'];
const NOUNS = ['inventory', 'vendor', 'invoice', 'order', 'ticket', 'device_log', 'manual_section', 'budget', 'contract', 'shipment', 'approval', 'payment', 'catalog', 'report', 'quote', 'request'];
const WORDS = ['request', 'vendor', 'budget', 'approval', 'deadline', 'stock', 'draft', 'department', 'policy', 'record', 'summary', 'audit', 'priority', 'category', 'region', 'invoice', 'contract', 'delivery', 'owner', 'review', 'threshold', 'finance', 'legal', 'retention'];
const CJK = ['采购申请', '供应商白名单', '预算上限', '设备故障', '根因分析', '维修建议', '审批草稿', '人工复核', '紧急采购', '库存查询', '合同条款', '数据驻留', '个人信息脱敏', '错误码', '告警渠道'];
const ROLES = ['System', 'LLM', 'Human Reviewer', 'BudgetBot', 'Human', 'Audit Team', 'Finance Lead', 'VendorMatcher'];
const LAYERS = ['Raw Log', 'Semantic Chunk', 'Cognitive Fact', 'Episode Summary', 'Vendor Profile', 'Price Snapshot', '会话摘要', 'Tool Trace'];
const CHANNELS = ['#procurement-alerts', '#finance-oncall', '#ops-incidents', '#legal-review', '#sre-pager'];
const AUTHORS = ['@dev-ops', '@legal', '@procurement-eng', '@finance', '@security', '@ml-platform', '@张伟', '@qa'];

const sentence = (rng: Rng, n = int(rng, 5, 12)): string => {
  const ws: string[] = [];
  for (let i = 0; i < n; i++) ws.push(pick(rng, WORDS));
  const s = ws.join(' ');
  return s[0]!.toUpperCase() + s.slice(1);
};
const cjk = (rng: Rng): string => `${pick(rng, CJK)}，${pick(rng, CJK)}`;
const maybeCjk = (rng: Rng, p = 0.2): string => (chance(rng, p) ? cjk(rng) : sentence(rng));
const ident = (rng: Rng): string => `${pick(rng, WORDS)}_${pick(rng, WORDS)}`;
const toolName = (rng: Rng, i: number): string => `${pick(rng, VERBS)}_${pick(rng, NOUNS)}_${i}`;
const version = (i: number): string => `${Math.floor(i / 20)}.${Math.floor(i / 5) % 4}.${i % 5}`;
const date = (rng: Rng): string => `20${int(rng, 22, 25)}-${String(int(rng, 1, 12)).padStart(2, '0')}-${String(int(rng, 1, 28)).padStart(2, '0')}`;

/** One section of the generated document: lines before the items, one generator per item, lines after. */
interface Part {
  readonly name: string;
  /** Relative weight when growing the document (0: never grows). */
  readonly weight: number;
  head: string[];
  items: string[][];
  tail: string[];
  /** Generates the next item (its lines). */
  readonly item: (i: number) => string[];
  /** Items given before growing. */
  readonly min: number;
}

/** The title of a section, in one of the spellings people use. */
function title(rng: Rng, canonical: string, aliases: readonly string[]): string {
  const r = rng();
  if (r < 0.75) return canonical;
  return pick(rng, aliases);
}

/** An H2 (ATX, or now and then setext). */
function h2(rng: Rng, text: string, setext = false): string[] {
  return setext ? [text, '-'.repeat(Math.max(3, Math.min(text.length, 40))), ''] : [`## ${text}`, ''];
}

function parts(rng: Rng): Part[] {
  const P = (name: string, weight: number, min: number, head: string[], item: (i: number) => string[], tail: string[] = ['']): Part => ({ name, weight, min, head, items: [], tail, item });
  const contractName = `${pick(rng, NOUNS)}_analyzer`;
  const hitlScenarios: string[] = [];
  const tools: string[] = [];
  const setextAt = chance(rng, 0.5) ? int(rng, 0, 3) : -1; // which of a few small sections uses a setext H2

  const out: Part[] = [];

  // Front matter, H1, prose, an example fence holding Markdown (with `##` and `---` lines).
  out.push(
    P(
      'preamble',
      0,
      0,
      [
        '---',
        'contract: true',
        `name: ${contractName}`,
        `version: ${version(int(rng, 20, 60))}`,
        `description: ${chance(rng, 0.3) ? cjk(rng) : sentence(rng)}.`,
        '---',
        '',
        `# ${contractName.replace(/_/g, ' ')}${chance(rng, 0.3) ? ' 🤖' : ''}`,
        '',
        `${sentence(rng, 20)}. ${sentence(rng, 14)}.`,
        '',
        '<!-- Generated by bench/generate.ts: a realistic contract for benchmarks and property tests. -->',
        '',
        'A typical answer looks like this:',
        '',
        '````markdown',
        '## Summary',
        '',
        `${sentence(rng)}.`,
        '',
        '---',
        '',
        '## Details',
        '````',
        '',
      ],
      () => [],
      [],
    ),
  );

  out.push(
    P(
      'identity',
      1,
      2,
      [
        ...h2(rng, title(rng, 'AGENT_IDENTITY', ['Agent Identity', 'Role & Scope', '智能体身份', '1. Agent identity 🤖'])),
        `- **Name**: \`${contractName}\``,
        `- **Core Mandate**: "${sentence(rng, 16)}."`,
        `- **Goal**: ${maybeCjk(rng, 0.3)}.`,
        `- **Authorized Writers**: ${ROLES.slice(0, 5).join(', ')}`,
        `- **On Missing Information**: Set the field to \`null\`, list it in \`missing_fields\` and continue.`,
        `- **Output Standard**: One JSON object matching OUTPUT_SCHEMA, with no prose around it.`,
        '- **May Act Directly**:',
        '  - Check stock levels',
        '  - Create approval drafts for whitelisted vendors',
        '- **Needs Confirmation**:',
        '  - Requests above 50,000 USD',
        '  - 供应商白名单之外的任何供应商',
        '- **Hard Boundaries**:',
      ],
      (i) =>
        chance(rng, 0.25)
          ? [`  - ✅ May use \`${tools[i % Math.max(1, tools.length)] ?? 'check_inventory_0'}\` to ${sentence(rng, 6).toLowerCase()}`]
          : chance(rng, 0.2)
            ? [`  - ❌ 禁止${pick(rng, CJK)}（${pick(rng, CJK)}）`]
            : [`  - ❌ Never ${sentence(rng, 7).toLowerCase()}`, ...(chance(rng, 0.2) ? [`    - e.g. ${sentence(rng, 5).toLowerCase()}`] : [])],
    ),
  );

  out.push(
    P(
      'memory_contract',
      3,
      3,
      [...h2(rng, title(rng, 'MEMORY_CONTRACT', ['Memory Contract', 'Memory Access Rules', '记忆契约'])), '| Layer | Read By | Write By | Retention |', '|-------|---------|----------|-----------|'],
      (i) => {
        const layer = i < LAYERS.length ? LAYERS[i]! : `${pick(rng, LAYERS)} ${i}`;
        const retention = pick(rng, [
          `${int(rng, 7, 365)} days`,
          "Until `order_status = 'closed'`",
          "Until `status IN ['closed', 'void']`",
          '`retain \\| archive` after 30 days',
          '永久版本化快照',
        ]);
        return [`| ${layer} | ${pick(rng, ROLES)}, ${pick(rng, ROLES)} | ${pick(rng, ROLES)} (Auto)${chance(rng, 0.3) ? ', Human (Override)' : ''} | ${retention} |`];
      },
    ),
  );

  out.push(
    P(
      'memory_policy',
      1,
      2,
      [
        ...h2(rng, title(rng, 'MEMORY_POLICY', ['Memory Policy', '记忆策略'])),
        '- **Source Priority**: `bank_callback` > `logistics_api` > `user_input` > `support_notes`',
        '- **Override Reasons**: `data_error`, `policy_change`, `user_request`',
        '',
        '### 1. Write Admission',
        '',
        '- Raw Log: written automatically, never deleted',
        '- Semantic Chunk: only when `relevance_score > 0.72` and `confidence > 0.85`',
        '',
        '### 2. 时效熔断',
        '',
        '- Raw Log：保留 90 天后归档',
        '- Semantic Chunk：30 天未被检索则降权',
        '',
        '### 3. Conflict Arbitration',
        '',
        '- When sources disagree, the higher source in Source Priority wins',
        '',
        '### 4. Human Override',
        '',
      ],
      () => [`- ${sentence(rng, 9)}${chance(rng, 0.3) ? ' with `override_by_human: true`' : ''}`],
    ),
  );

  out.push(
    P(
      'memory_freshness',
      1,
      2,
      [...h2(rng, title(rng, 'MEMORY_FRESHNESS', ['Memory Freshness', 'Data Freshness']), setextAt === 0)],
      (i) =>
        chance(rng, 0.2)
          ? [`- **${ident(rng)}_${i}**: Static. No freshness requirement.`]
          : [`- **${ident(rng)}_${i}**: Must be updated before \`0${int(rng, 1, 5)}:00 UTC\`. Stale after \`0${int(rng, 6, 9)}:30 UTC\`.`],
    ),
  );

  out.push(
    P(
      'memory_pools',
      1,
      2,
      [...h2(rng, title(rng, 'MEMORY_POOLS', ['Memory Pools', '记忆池']))],
      (i) => {
        const bt = chance(rng, 0.3) ? '`' : '';
        return [
        `### ${bt}${pick(rng, NOUNS)}_pool_${i}${bt}`,
        '',
        `- **Content**: ${maybeCjk(rng, 0.3)}`,
        `- **Retrieval Trigger**: The request names a ${pick(rng, WORDS)}, or says "again" or "as last time"`,
        `- **Lifecycle**: ${pick(rng, ['30 days rolling', '90 天自动归档', 'Versioned snapshot, permanent'])}`,
        `- **Metadata**: \`${ident(rng)}\`, \`${ident(rng)}\`, \`request_date\``,
        `- **Weight**: 0.${int(rng, 1, 9)}`,
        `- **Shared**: ${pick(rng, ['yes', 'no'])}`,
        '',
        ];
      },
    ),
  );

  out.push(
    P(
      'memory_requirements',
      1,
      2,
      [...h2(rng, title(rng, 'MEMORY_REQUIREMENTS', ['Memory Requirements', '记忆需求'])), '```yaml'],
      (i) => [
        `- pool: ${pick(rng, NOUNS)}_pool_${i}`,
        `  required: ${pick(rng, ['true', 'false'])}`,
        '  filters:',
        `    - field: ${ident(rng)}`,
        `      value: "{{extracted_${pick(rng, ['department_id', 'vendor_name'])}${chance(rng, 0.3) ? '[:3]' : ''}}}"`,
        ...(chance(rng, 0.5) ? [`  top_k: ${int(rng, 1, 10)}`, `  weight: 0.${int(rng, 1, 9)}`] : []),
      ],
      ['```', ''],
    ),
  );

  out.push(
    P(
      'trigger',
      1,
      2,
      [...h2(rng, title(rng, 'TRIGGER', ['Trigger', '触发'])), '```yaml', '# Intent patterns: JavaScript syntax, RE2 semantics', 'intent_patterns:'],
      () => [
        pick(rng, [
          `  - '(采购|购买|procure|purchase|buy).*${pick(rng, WORDS)}'`,
          `  - 'need \\d+ .+ by \\d{4}-\\d{2}-\\d{2}'`,
          `  - '${pick(rng, WORDS)}\\s+(?:${pick(rng, WORDS)}|${pick(rng, WORDS)})'`,
          `  - 定位.*故障.*原因`,
          `  - 'E\\d{3}.*什么意思'`,
        ]),
      ],
      ['required_entities:', '  - name: department_id', "    pattern: 'DEP-\\d{3}'", '    description: Requesting department', '  - vendor_name', '```', ''],
    ),
  );

  const toolItem = (i: number): string[] => {
    const name = toolName(rng, i);
    tools.push(name);
    const heading = `### ${chance(rng, 0.3) ? `\`${name}\`` : name}`;
    const param = ident(rng);
    if (chance(rng, 0.5)) {
      // Bullets, with the schemas as json fences inside the list items.
      return [
        heading,
        '',
        `- **Description**: ${maybeCjk(rng, 0.25)}.`,
        `- **When to use**: ${sentence(rng, 10)}.`,
        `- **When not to use**: ${sentence(rng, 8)}; never to ${pick(rng, VERBS)} a ${pick(rng, NOUNS)}.`,
        `- **Side Effects**: ${pick(rng, ['read', 'none', 'write'])}`,
        `- **Idempotent**: ${pick(rng, ['yes', 'no'])}`,
        `- **Timeout**: ${int(rng, 5, 60)}s`,
        '- **Input Schema**:',
        '  ```json',
        '  {',
        '    "type": "object",',
        `    "required": ["${param}"],`,
        '    "properties": {',
        `      "${param}": { "type": "string", "pattern": "^[A-Z]{3}-\\\\d{4}$", "examples": ["LAP-00${int(rng, 10, 99)}"] }`,
        '    }',
        '  }',
        '  ```',
        '- **Output Schema**:',
        '  ```json',
        '  {',
        '    "type": "object",',
        `    "required": ["${param}", "in_stock"],`,
        '    "properties": {',
        `      "${param}": { "type": "string" },`,
        `      "in_stock": { "type": "integer", "minimum": 0, "examples": [${int(rng, 0, 50)}] }`,
        '    }',
        '  }',
        '  ```',
        '',
      ];
    }
    // A yaml mapping with input_schema/output_schema.
    return [
      heading,
      '',
      '```yaml',
      `description: ${maybeCjk(rng, 0.25)}.`,
      `when_to_use: ${sentence(rng, 9)}.`,
      `when_not_to_use: ${sentence(rng, 7)}.`,
      `side_effects: ${pick(rng, ['write', 'external', 'read'])}`,
      'requires_approval: true',
      `idempotent: ${pick(rng, ['true', 'false'])}`,
      `rollback: Cancel the ${pick(rng, NOUNS)} by its id`,
      `timeout: ${int(rng, 5, 60)}s`,
      'input_schema:',
      '  type: object',
      `  required: [${param}, amount]`,
      '  properties:',
      `    ${param}: { type: string, examples: [${pick(rng, ['Dell', 'ACME', '联想'])}] }`,
      `    amount: { type: integer, minimum: 1, maximum: ${int(rng, 1000, 1000000)}, examples: [4800] }`,
      '    # Comments in YAML start with a hash, like a Markdown heading would.',
      'output_schema:',
      '  type: object',
      `  required: [${param}_id]`,
      '  properties:',
      `    ${param}_id: { type: string, examples: [DRF-2024-0${int(rng, 100, 999)}] }`,
      '```',
      '',
      ...(chance(rng, 0.2) ? ['Example result:', '', '~~~text', `## ${name} result`, '---', `${sentence(rng)}`, '~~~', ''] : []),
    ];
  };
  out.push(P('tools', 1, 2, [...h2(rng, title(rng, 'TOOLS', ['Tools', 'Tool Registry', '工具']))], toolItem, []));

  out.push(
    P(
      'constraints',
      1,
      2,
      [...h2(rng, title(rng, 'CONSTRAINTS', ['Constraints', 'Guardrails', '约束'])), '```yaml', '- type: output_format', '  format: json', '  schema:', '    type: object', '    required: [items, budget_max]'],
      () =>
        chance(rng, 0.3)
          ? ['- type: language', `  language: ${pick(rng, ['en', 'zh-CN'])}`]
          : ['- type: safety_guard', `  rule: ${chance(rng, 0.3) ? `禁止推测未在 \`kb_reference\` 中明确记载的${pick(rng, CJK)}` : `Never ${sentence(rng, 8).toLowerCase()}.`}`],
      ['```', ''],
    ),
  );

  out.push(
    P(
      'output_schema',
      1,
      2,
      [...h2(rng, title(rng, 'OUTPUT_SCHEMA', ['Output Schema', '输出结构'])), '```json', '{', '  "type": "object",', '  "required": ["items", "confidence_score"],', '  "properties": {'],
      (i) => [`    "${ident(rng)}_${i}": { "type": "${pick(rng, ['string', 'integer', 'boolean'])}", "description": "${sentence(rng, 5)}" },`],
      ['    "confidence_score": { "type": "number", "minimum": 0.0, "maximum": 1.0 }', '  }', '}', '```', ''],
    ),
  );

  const hitlName = (i: number): string => {
    const n = chance(rng, 0.2) ? `${pick(rng, CJK)}审批 ${i}` : `${sentence(rng, 3)} ${i}`;
    hitlScenarios.push(n);
    return n;
  };
  out.push(
    P(
      'failure_protocol',
      3,
      3,
      [...h2(rng, title(rng, 'FAILURE_PROTOCOL', ['Failure Protocol', 'When Things Go Wrong', '失败协议']))],
      (i) => {
        const cond = chance(rng, 0.3) ? `\`${ident(rng)}\` is empty on an urgent request` : chance(rng, 0.2) ? `${pick(rng, CJK)}失败` : `${sentence(rng, 6).toLowerCase()}`;
        const steps = [`Halt processing`, `Log full response + prompt`, `Fall back to \`template_based_response.md\``, `Wait for \`override\` signal (max ${int(rng, 5, 30)} mins) or auto-reject`, `Alert \`${pick(rng, CHANNELS)}\` with severity \`P${int(rng, 1, 4)}\``];
        const chosen = steps.filter(() => chance(rng, 0.5));
        const code = `E${String(i + 1).padStart(3, '0')}`;
        const line = `- **If ${cond}**: → ${[...chosen, `Return error_code \`${code}\``].join(' → ')}`;
        const scen = hitlScenarios[i];
        return scen !== undefined && chance(rng, 0.4) ? [line, `  - **Scenario**: ${scen}`] : [line];
      },
    ),
  );

  out.push(
    P(
      'human_in_the_loop',
      6,
      3,
      [
        ...h2(rng, title(rng, 'HUMAN_IN_THE_LOOP', ['Human in the Loop', 'HITL', '人工介入'])),
        '| Scenario | Trigger Condition | Required Action | SLA | On Timeout |',
        '|----------|-------------------|-----------------|-----|------------|',
      ],
      (i) => {
        const cond = pick(rng, [
          '`amount > 50000`',
          '`vendor_domain NOT IN vendor_whitelist.csv`',
          "`beneficiary_country IN ['XXX', 'YYY']`",
          '`sku MATCHES \'^(LAP\\|MON)-\\d{4}$\'`',
          `${sentence(rng, 5)} \\| ${pick(rng, WORDS)}`,
          `${pick(rng, CJK)}超过阈值`,
        ]);
        return [`| ${hitlName(i)} | ${cond} | ${sentence(rng, 6)} via \`/approve ${pick(rng, NOUNS)}_id=${int(rng, 100, 999)}\` | ${pick(rng, ['24h', '4h', '15m', '2d'])} | ${pick(rng, ['reject', 'escalate'])} |`];
      },
    ),
  );

  out.push(
    P(
      'budgets',
      0,
      0,
      [
        ...h2(rng, title(rng, 'BUDGETS', ['Budgets', 'Budgets & Limits', '预算'])),
        `- **Max Steps**: ${pick(rng, [20, 50, 100])}`,
        `- **Token Budget**: ${pick(rng, ['10000', '10,000', '32_000'])}`,
        '- **Timeout**: 5m',
        '- **On Timeout**: Return the fields extracted so far with `missing_fields` filled and hand over to a human',
        `- **Requires Approval**: \`create_approval_draft\``,
        '- **Tool Timeouts**:',
        '  - `check_inventory`: 10s',
        '  - `create_approval_draft`: 30s',
        '- **Circuit Breaker**:',
        '  - **Failures**: 3',
        '  - **Cooldown**: 60s',
        '- **Max Result Chars**: 1200',
        '',
      ],
      () => [],
      [],
    ),
  );

  out.push(
    P(
      'task',
      0,
      0,
      [
        ...h2(rng, title(rng, 'TASK', ['Task', 'Task Definition', '任务']), setextAt === 1),
        '```yaml',
        'inputs:',
        '  - procurement request text',
        'outputs:',
        '  format: json',
        '  fields: [items, budget_min, budget_max, deadline, vendor_constraints]',
        'completion_criteria:',
        '  - Every field of the output is present (null when the user did not give it)',
        '  - A draft exists for every request whose budget was stated',
        'complexity: simple',
        'max_steps: 20',
        '```',
        '',
      ],
      () => [],
      [],
    ),
  );

  out.push(
    P(
      'versioning',
      6,
      3,
      [...h2(rng, title(rng, 'VERSIONING & AUDIT', ['VERSIONING_AND_AUDIT', 'Version History', '版本与审计'])), '| Version | Date | Changed By | Key Changes |', '|---------|------|------------|-------------|'],
      (i) => {
        const change = pick(rng, [
          `Added \`fallback\` rule for ${pick(rng, WORDS)} sync failure`,
          `Changed pattern \`(采购\\|购买)\` in TRIGGER`,
          `Updated \`COMPLIANCE\` section per GDPR Annex ${int(rng, 1, 9)}`,
          `${sentence(rng, 7)}`,
          `修订${pick(rng, CJK)}`,
          `Split \`read \\| write\` access for ${pick(rng, LAYERS)}`,
        ]);
        return [`| v${version(200 - i)} | ${date(rng)} | ${pick(rng, AUTHORS)} | ${change} |`];
      },
    ),
  );

  out.push(
    P(
      'compliance',
      0,
      0,
      [
        ...h2(rng, title(rng, 'COMPLIANCE', ['Compliance', 'Regulatory Constraints', '合规'])),
        '- **Data Residency**: All Raw Logs and Cognitive Facts must reside in `us-west-2` region',
        '- **PII Handling**: User names/emails must be redacted before writing to the Semantic Chunk layer',
        '- **PII Fields**: `user_name`, `user_email`',
        '- **Audit Trail**: Every `override_by_human` action must include an `override_reason` from MEMORY_POLICY',
        '- **Clauses**: `GDPR-ANNEX-7`, `ISO27001-A.9.4.2`',
        '',
      ],
      () => [],
      [],
    ),
  );

  out.push(
    P(
      'resources',
      1,
      1,
      [...h2(rng, title(rng, 'RESOURCES', ['Resources', 'External Resources'])), '| Path | SHA-256 | Description |', '|------|---------|-------------|'],
      (i) => {
        let hex = '';
        for (let k = 0; k < 64; k++) hex += '0123456789abcdef'[int(rng, 0, 15)];
        return [`| \`${i === 0 ? 'vendor_whitelist' : ident(rng)}${i ? `_${i}` : ''}.csv\` | ${hex} | ${sentence(rng, 6)} |`];
      },
    ),
  );

  out.push(
    P('notes', 0, 0, chance(rng, 0.5) ? [...h2(rng, 'Notes for reviewers', setextAt === 2), `${sentence(rng, 18)}.`, '', `> ${sentence(rng, 8)}.`, ''] : [], () => [], []),
  );

  out.push(P('semantic_anchors', 1, 2, [...h2(rng, title(rng, 'SEMANTIC_ANCHORS', ['Semantic Anchors', '语义锚点']), setextAt === 3)], () => [`- ${pick(rng, ['CDN', 'ERP', 'SaaS', 'SKU', 'PO', 'GDPR', '供应链', 'RFQ'])}`]));

  out.push(
    P(
      'user_stories',
      1,
      2,
      [...h2(rng, title(rng, 'USER_STORIES', ['User Stories', '用户故事']))],
      () => [chance(rng, 0.3) ? `- 作为${pick(rng, ['采购员', '法务', '财务'])}，我希望${pick(rng, CJK)}能被${pick(rng, ['识别', '记录', '优先处理'])}。` : `- As a ${pick(rng, ['buyer', 'legal', 'finance lead'])}, I want ${sentence(rng, 8).toLowerCase()}.`],
      [],
    ),
  );
  return out;
}

/**
 * A realistic contract of exactly `lines` lines (default 2,000), each ending in `\n`.
 * Deterministic in `(lines, seed)`. Small sizes drop sections that do not fit.
 */
export function generateContract(lines = 2000, seed = 1): string {
  const rng = mulberry32(seed);
  const all = parts(rng);
  const budget = Math.max(0, Math.floor(lines));
  // Sections in order while their minimal form fits.
  const chosen: Part[] = [];
  let total = 0;
  for (const p of all) {
    const base: string[][] = [];
    for (let i = 0; i < p.min; i++) base.push(p.item(i));
    const size = p.head.length + p.tail.length + base.reduce((n, it) => n + it.length, 0);
    if (p.name !== 'preamble' && total + size > budget) continue;
    p.items = base;
    chosen.push(p);
    total += size;
  }
  // Grow weighted sections item by item while whole items fit.
  const growable = chosen.filter((p) => p.weight > 0);
  const weightSum = growable.reduce((n, p) => n + p.weight, 0);
  let misses = 0;
  while (growable.length > 0 && total < budget && misses < 20) {
    let r = rng() * weightSum;
    let p = growable[0]!;
    for (const g of growable) {
      r -= g.weight;
      if (r < 0) {
        p = g;
        break;
      }
    }
    const item = p.item(p.items.length);
    if (total + item.length > budget) {
      misses++;
      continue;
    }
    p.items.push(item);
    total += item.length;
  }
  // Fill the rest with one-line items (table rows, bullets), or prose in the preamble.
  const oneLiners = growable.filter((p) => ['human_in_the_loop', 'versioning', 'semantic_anchors', 'user_stories', 'memory_contract'].includes(p.name));
  let k = 0;
  while (total < budget) {
    const p = oneLiners[k++ % Math.max(1, oneLiners.length)];
    let item = p ? p.item(p.items.length) : [];
    if (item.length !== 1) item = [];
    if (p && item.length === 1) p.items.push(item);
    else chosen[0]!.head.push(`${sentence(rng)}.`);
    total++;
  }
  const out: string[] = [];
  for (const p of chosen) {
    out.push(...p.head);
    for (const it of p.items) out.push(...it);
    out.push(...p.tail);
  }
  // Trim the (rare) overshoot of the minimal preamble on tiny budgets.
  const text = out.slice(0, Math.max(budget, 0)).join('\n');
  return budget === 0 ? '' : `${text}\n`;
}

/** Counts the lines of a generated text (its number of `\n`). */
export function countLines(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Edit helpers
// ---------------------------------------------------------------------------------------------

/** A text after an edit, with the (0-based) line that was edited. */
export interface EditResult {
  readonly text: string;
  readonly line: number;
  readonly description: string;
}

/** The lines of a text (split on `\n`; a trailing `\n` gives an empty last line). */
function splitLines(text: string): string[] {
  return text.split('\n');
}

/** Replaces line `line` (0-based) of `text` by `f(oldLine)`. */
export function editLine(text: string, line: number, f: (old: string) => string): string {
  const ls = splitLines(text);
  if (line < 0 || line >= ls.length) return text;
  ls[line] = f(ls[line]!);
  return ls.join('\n');
}

/** Inserts `content` as a new line before line `line`. */
export function insertLine(text: string, line: number, content: string): string {
  const ls = splitLines(text);
  ls.splice(Math.max(0, Math.min(line, ls.length)), 0, content);
  return ls.join('\n');
}

/** Deletes line `line`. */
export function deleteLine(text: string, line: number): string {
  const ls = splitLines(text);
  if (line < 0 || line >= ls.length) return text;
  ls.splice(line, 1);
  return ls.join('\n');
}

/** Replaces `deleteCount` characters at `offset` (clamped) by `insert`. */
export function spliceText(text: string, offset: number, deleteCount: number, insert: string): string {
  const at = Math.max(0, Math.min(offset, text.length));
  return text.slice(0, at) + insert + text.slice(Math.min(text.length, at + Math.max(0, deleteCount)));
}

/** The 0-based lines of `text` matching `re`, in order. */
export function findLines(text: string, re: RegExp): number[] {
  const out: number[] = [];
  splitLines(text).forEach((l, i) => {
    if (re.test(l)) out.push(i);
  });
  return out;
}

const TABLE_BODY_ROW = /^\|(?!\s*:?-{2,}).*\|\s*$/;
const DELIMITER_ROW = /^\|?\s*:?-{2,}/;

/** The candidate line closest to `near`. */
function closestTo(lines: number[], near: number): number | undefined {
  let best: number | undefined;
  for (const l of lines) if (best === undefined || Math.abs(l - near) < Math.abs(best - near)) best = l;
  return best;
}

/**
 * Changes one word in a table cell: of the table body rows (not header, not delimiter), the
 * one closest to line `near` (default: the middle of the file). The word that follows the
 * row's first `| ` changes (`variant` picks the replacement, so repeated edits differ).
 */
export function editTableCell(text: string, near?: number, variant = 0): EditResult {
  const ls = splitLines(text);
  // Body rows: table lines that are not the header (whose next line is the delimiter row).
  const rows = findLines(text, TABLE_BODY_ROW).filter((l) => !DELIMITER_ROW.test(ls[l + 1] ?? ''));
  const line = closestTo(rows, near ?? Math.floor(ls.length / 2));
  if (line === undefined) return { text, line: -1, description: 'no table row' };
  const replacement = ['edited', 'changed', 'revised', 'amended'][variant % 4]!;
  const next = editLine(text, line, (old) => {
    // The second cell's first word (the first is often a key such as a version).
    const m = /^(\|[^|]*\|\s*)([^\s|`\\]+)/.exec(old);
    if (!m) return old.replace(/^\|\s*/, `| ${replacement} `);
    return m[1]! + replacement + old.slice(m[0].length);
  });
  return { text: next, line, description: `changed a word in the table row at line ${line + 1}` };
}

/** Changes the value of the labelled bullet (`- **Label**: value`) closest to `near`. */
export function editBullet(text: string, near?: number, variant = 0): EditResult {
  const ls = splitLines(text);
  const line = closestTo(findLines(text, /^\s*- \*\*[^*]+\*\*:\s*\S/), near ?? Math.floor(ls.length / 2));
  if (line === undefined) return { text, line: -1, description: 'no labelled bullet' };
  const next = editLine(text, line, (old) => old.replace(/(\*\*:\s*)(\S+)/, `$1${['Edited', 'Changed', 'Revised', 'Amended'][variant % 4]}`));
  return { text: next, line, description: `changed the value of the bullet at line ${line + 1}` };
}

/** Changes a YAML scalar inside a fenced yaml block (a `key: value` line) closest to `near`. */
export function editYamlValue(text: string, near?: number, variant = 0): EditResult {
  const ls = splitLines(text);
  const inYaml: number[] = [];
  let fence = false;
  let yaml = false;
  ls.forEach((l, i) => {
    if (/^\s*```/.test(l)) {
      if (!fence) {
        fence = true;
        yaml = /^\s*```ya?ml\b/.test(l);
      } else fence = yaml = false;
      return;
    }
    if (fence && yaml && /^\s*(description|rollback|rule|when_to_use):\s+\S/.test(l)) inYaml.push(i);
  });
  const line = closestTo(inYaml, near ?? Math.floor(ls.length / 2));
  if (line === undefined) return { text, line: -1, description: 'no yaml value' };
  const next = editLine(text, line, (old) => old.replace(/(:\s+)(\S)/, `$1${['edited ', 'changed ', 'revised ', 'amended '][variant % 4]}$2`));
  return { text: next, line, description: `changed a yaml value at line ${line + 1}` };
}

/**
 * A pull request's worth of edits to a generated contract, for the semantic diff benchmark:
 * three table cells, two labelled bullets and two YAML values reworded, one tool (an H3 item)
 * and one ❌ boundary deleted, a HITL row added, and the rows of the first table reversed (a
 * formatting-only edit). Deterministic; edits that find nothing to change are skipped.
 */
export function reviewEdits(text: string): EditResult {
  let t = text;
  const size = countLines(text);
  for (const [k, near] of [0.25, 0.5, 0.75].entries()) t = editTableCell(t, Math.floor(size * near), k).text;
  for (const [k, near] of [0.3, 0.6].entries()) t = editBullet(t, Math.floor(size * near), k).text;
  for (const [k, near] of [0.4, 0.8].entries()) t = editYamlValue(t, Math.floor(size * near), k).text;
  const ls = splitLines(t);
  // Delete the second tool: from its H3 to the next heading.
  const tools = ls.findIndex((l) => /^## (?:TOOLS|Tools|Tool Registry|工具)\s*$/.test(l));
  const items = tools < 0 ? [] : ls.map((l, i) => (i > tools && /^### /.test(l) ? i : -1)).filter((i) => i >= 0);
  const second = items[1];
  if (second !== undefined) {
    let end = second + 1;
    while (end < ls.length && !/^#{2,3} /.test(ls[end]!)) end++;
    ls.splice(second, end - second);
  }
  const boundary = ls.findIndex((l) => /^\s+- ❌/.test(l));
  if (boundary >= 0) ls.splice(boundary, 1);
  const hitl = ls.findIndex((l) => /^\| Scenario \|/.test(l));
  if (hitl >= 0 && ls[hitl + 2]?.startsWith('|')) ls.splice(hitl + 2, 0, ls[hitl + 2]!.replace(/^\|\s*[^|]+\|/, '| Added in review |'));
  const header = ls.findIndex((l, i) => l.startsWith('|') && DELIMITER_ROW.test(ls[i + 1] ?? ''));
  if (header >= 0) {
    let end = header + 2;
    while (end < ls.length && TABLE_BODY_ROW.test(ls[end]!)) end++;
    ls.splice(header + 2, end - header - 2, ...ls.slice(header + 2, end).reverse());
  }
  return { text: ls.join('\n'), line: -1, description: 'a review: 7 values reworded, a tool and a boundary deleted, a HITL row added, a table reordered' };
}
