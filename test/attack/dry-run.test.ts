// Attack suite, the dry run's own inputs (docs/robustness.md, "Dry runs"): what a careless or
// hostile editor answers to a human-decision pause, tool schemas that loop, drafts users write,
// an unresolvable `$ref`, and traces that are deep, carry a duplicated key or a byte order mark.
// Everything here runs the real engine and the real trace verifier in-process.
// Run: node --import tsx --test test/attack/dry-run.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTRACT, run, snapshot } from '../helpers/dryRun.ts';
import { createLanguageService, parseContract, type TraceEvent } from '../../server/src/service/index.ts';
import { eventChecksum } from '../../server/src/service/run/trace/trace.ts';
import { verifyTrace } from '../../server/src/service/run/trace/traceVerify.ts';

const REFUND = snapshot(`  - id: r\n    query: refund order ORD-123\n    model:\n      - { call: refund_order, arguments: { order_id: ORD-123, amount: 500 } }\n      - final: { status: paid }\n`).queries[0]!;

describe('answers to a human-decision pause', () => {
  const answered = async (answer: () => Promise<unknown>) => {
    const events: TraceEvent[] = [];
    const r = await run(REFUND, { decide: answer as never, onEvent: (e) => void events.push(e) });
    return { r, events };
  };

  for (const [name, answer] of [['an error', () => Promise.reject(new Error('client went away'))], ['null', async () => null], ['"maybe"', async () => 'maybe'], ['{ decision: 7 }', async () => ({ decision: 7 })]] as const) {
    test(`${name}: the run ends HUMAN_INVALID_ANSWER with task_end, not a timeout or a crash`, async () => {
      const { r, events } = await answered(answer);
      assert.equal(r.outcome.code, 'HUMAN_INVALID_ANSWER');
      assert.equal(r.outcome.status, 'failure');
      assert.match(r.outcome.message, name === 'an error' ? /could not be asked: client went away/ : /neither approve nor reject/);
      assert.equal(events.at(-1)?.event_type, 'task_end', 'the trace ends properly');
      const response = events.find((e) => e.event_type === 'human_response');
      assert.equal((response?.payload as { decision?: string }).decision, 'invalid');
    });
  }

  test('"APPROVE" and " Reject " count as approve and reject, whatever their case', async () => {
    const approved = await answered(async () => 'APPROVE');
    assert.equal(approved.r.outcome.code, 'OK');
    const rejected = await answered(async () => ({ decision: ' Reject ' }));
    assert.equal(rejected.r.outcome.code, 'HUMAN_REJECTED');
  });
});

const withInputSchema = (schema: string) => {
  const text = CONTRACT.replace(/\{ "type": "object", "required": \["order_id"\], "properties": \{ "order_id": \{ "type": "string", "pattern": "[^"]+" \} \} \}/, schema);
  assert.notEqual(text, CONTRACT);
  return text;
};
const lintErrors = async (text: string) => (await createLanguageService().lintBytes('file:///w/AGENTS.md', new TextEncoder().encode(text))).diagnostics.filter((d) => d.code === 'invalid-json-schema' || d.code === 'internal-error');
const ORDER = snapshot(`  - id: o\n    query: where is order ORD-123\n    model:\n      - { call: get_order, arguments: { order_id: ORD-123 } }\n      - final: { status: shipped }\n`).queries[0]!;
const inputCheck = async (text: string) => {
  const events: TraceEvent[] = [];
  const r = await run(ORDER, { contract: parseContract(text), onEvent: (e) => void events.push(e) });
  const check = events.find((e) => e.event_type === 'validation' && (e.payload as { check_id?: string }).check_id === 'check.input-schema');
  return { r, check };
};

describe('tool schemas', () => {
  for (const schema of ['{ "$ref": "#" }', '{ "type": "object", "allOf": [{ "$ref": "#" }] }']) {
    test(`${schema}: lint reports the loop; run does not crash and does not claim the check passed`, async () => {
      const text = withInputSchema(schema);
      const errors = await lintErrors(text);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.match(errors[0]!.message, /"\$ref": "#" refers back to the whole schema/);
      const { r, check } = await inputCheck(text);
      assert.equal(r.outcome.code, 'OK');
      assert.equal(check?.status, 'skipped');
      assert.match(String((check?.payload as { detail?: string }).detail), /not checked: the schema does not compile/);
    });
  }

  test('a recursive schema that consumes input ($ref "#" under properties) is fine', async () => {
    const text = withInputSchema('{ "type": "object", "properties": { "order_id": { "type": "string" }, "child": { "$ref": "#" } } }');
    assert.deepEqual(await lintErrors(text), []);
    assert.equal((await inputCheck(text)).check?.status, 'success');
  });

  test('an unresolvable $ref: a lint error, and the run says "not checked", never "passed"', async () => {
    const text = withInputSchema('{ "type": "object", "properties": { "order_id": { "$ref": "#/definitions/nope" } } }');
    assert.match((await lintErrors(text))[0]!.message, /can't resolve reference/);
    const { check } = await inputCheck(text);
    assert.equal(check?.status, 'skipped');
  });

  for (const [draft, id] of [['draft-07', 'http://json-schema.org/draft-07/schema#'], ['draft-06', 'http://json-schema.org/draft-06/schema#'], ['draft-04', 'http://json-schema.org/draft-04/schema#'], ['2019-09', 'https://json-schema.org/draft/2019-09/schema']] as const) {
    test(`"$schema": ${draft} is checked and run by its own draft, not an internal error`, async () => {
      // `items` as a list is draft-07's tuple form (2020-12 calls it prefixItems).
      const items = draft === '2019-09' ? '' : ', "tags": { "type": "array", "items": [{ "type": "string" }] }';
      const text = withInputSchema(`{ "$schema": "${id}", "type": "object", "required": ["order_id"], "properties": { "order_id": { "type": "string", "pattern": "^ORD-" }${items} } }`);
      assert.deepEqual(await lintErrors(text), []);
      const { r, check } = await inputCheck(text);
      assert.equal(check?.status, 'success');
      assert.equal(r.outcome.code, 'OK');
      const bad = await inputCheck(text.replace('"pattern": "^ORD-"', '"pattern": "^XRD-"'));
      assert.equal(bad.check?.status, 'invalid', 'the draft\'s schema really checks');
    });
  }

  test('an unknown $schema is a lint error at $schema', async () => {
    const errors = await lintErrors(withInputSchema('{ "$schema": "https://example.com/my-schema", "type": "object" }'));
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /at \/\$schema: "https:\/\/example.com\/my-schema" is not a draft agents-md knows/);
  });
});

describe('hostile traces', () => {
  /** A one-event trace whose chain is correct for `payloadJson`, written as `line(eventJson)`. */
  const oneEvent = async (payload: unknown, line: (json: string) => string = (j) => j) => {
    const unsigned = { event_id: 'evt_0001', event_type: 'task_start', timestamp: '2024-06-12T08:00:00.000Z', source: 'runner', status: 'success', prev_event: null, payload } as const;
    const event = { ...unsigned, checksum: await eventChecksum('', unsigned as never) };
    return `${line(JSON.stringify(event))}\n`;
  };

  test('a 100,000-deep payload: a clear problem, no stack overflow', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `{"event_id":"evt_0001","event_type":"task_start","timestamp":"2024-06-12T08:00:00.000Z","source":"runner","status":"success","prev_event":null,"payload":{"x":${deep}},"checksum":"${'0'.repeat(64)}"}\n`;
    const v = await verifyTrace(text);
    assert.deepEqual(v.problems.map((p) => p.messageId), ['trace.too-deep']);
  });

  test('a duplicated key fails verify even when the chain was computed over the value JSON.parse keeps', async () => {
    const text = await oneEvent({ amount: 5 }, (j) => j.replace('"payload":{', '"payload":{"amount":5000,'));
    const v = await verifyTrace(text);
    assert.deepEqual(v.problems.map((p) => [p.messageId, p.args['key']]), [['trace.duplicate-key', 'amount']]);
  });

  test('a trace with a UTF-8 byte order mark verifies', async () => {
    const v = await verifyTrace(`\uFEFF${await oneEvent({ note: 'ok' })}`);
    assert.deepEqual(v.problems, []);
    assert.equal(v.events.length, 1);
  });

  test('keys that look alike in different objects are no duplicates', async () => {
    const v = await verifyTrace(await oneEvent({ a: { id: 1 }, b: { id: 2 }, list: [{ id: 1 }, { id: 2 }], text: 'say "id": 1, "id": 2' }));
    assert.deepEqual(v.problems, []);
  });
});

