// Check against production traces in a real VS Code (docs/conformance.md, "In the editor"): the
// procurement sample opened in code-server with a traces folder beside it (`agentsMd.conformance.traces`)
// holding OTLP JSON that the fixture agent wrote with the official OpenTelemetry SDK
// (test/fixtures/conformance/agent.ts): one run that keeps the contract and one that calls the write
// tool `create_approval_draft` without an approval. The user clicks the editor title's "Check
// against production traces" button and sees a code lens per clause ("exercised 2× · attested",
// "1 violation in 2× · attested"), and in the Problems panel one row under the source
// `agents-md conformance` at the approval clause, its run and span as related information under it.
//
//   node --import tsx --test test/e2e/conformance.e2e.ts          # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a
// failure). Screenshots: test-results/e2e/conformance-*.png.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runScenario, SCENARIOS } from '../fixtures/conformance/agent.ts';
import { DEFAULT_TIMEOUT_MS, e2eSkipReason, lineOf, openFileFromExplorer, packageRepoExtension, press, REPO_DIR, sampleWorkspace, screenshot, startWorkbench, until } from './codeServer.ts';

const skip = e2eSkipReason();
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The fixture agent's runs `clean` and `write-without-approval`, as the OTLP file exporter writes them (one request per line). */
function tracesFile(): string {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'fixture-agent' }), spanProcessors: [new SimpleSpanProcessor(memory)] });
  for (const s of SCENARIOS.filter((x) => x.id === 'clean' || x.id === 'write-without-approval')) runScenario(provider.getTracer('fixture-agent'), s);
  return `${new TextDecoder().decode(JsonTraceSerializer.serializeRequest(memory.getFinishedSpans()))}\n`;
}

test('e2e conformance: the editor title button grades the contract against the traces folder; lenses per clause, the violation and its span in Problems', { skip, timeout: 600_000 }, async (t: TestContext) => {
  const { vsix, ms } = await packageRepoExtension();
  t.diagnostic(`npm run package: ${ms} ms`);
  const dir = await sampleWorkspace(join(REPO_DIR, 'samples/procurement-analyzer'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const text = await readFile(join(dir, 'AGENTS.md'), 'utf8');
  await mkdir(join(dir, 'traces'));
  await writeFile(join(dir, 'traces', 'agent.otlp.jsonl'), tracesFile());
  const settings = { 'editor.minimap.enabled': false, 'agentsMd.versionAdvice': false, 'agentsMd.conformance.traces': 'traces' };
  const { page, passed } = await startWorkbench(t, 'conformance', { workspaceDir: dir, extensions: [vsix], settings });
  await openFileFromExplorer(page, 'AGENTS.md');

  // The editor title's button, as a user finds it (its tooltip is the command's title).
  const button = page.locator('.editor-actions .action-item a[aria-label="Check against production traces"]').first();
  await button.waitFor({ state: 'visible', timeout: 3 * DEFAULT_TIMEOUT_MS });
  await button.click();

  // The summary, as a notification once the traces are graded.
  await page.locator('.notification-toast').filter({ hasText: '2 runs, 10 spans: 1 violation, 10 of 23 clauses exercised.' }).first().waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  // The lenses of the tool `create_approval_draft`: on its heading, its `Requires Approval` line and its `Input Schema` field.
  // A lens with a command is a link (`a`), one without a `span`.
  const lenses = page.locator('.editor-instance .codelens-decoration > a, .editor-instance .codelens-decoration > span').filter({ visible: true });
  const approvalLine = lineOf(text, '- **Requires Approval**: true').line;
  const headingLine = lineOf(text, '### `create_approval_draft`').line;
  const schemaLine = approvalLine + text.split('\n').slice(approvalLine).findIndex((l) => l.startsWith('- **Input Schema**:')) + 1;
  // Go to Line (Ctrl+G) scrolls there; the lines are then found by their numbers in the margin, which lenses arriving do not confuse.
  await press(page, 'Control+G');
  await page.locator('.quick-input-widget .quick-input-box input').fill(`:${approvalLine}:1`);
  await press(page, 'Enter');
  /** The lens drawn right above 1-based `line` (Monaco puts a lens in its own zone over the line, beside its number in the margin). */
  let seen = '';
  const lensAbove = async (line: number) => {
    const numbers = page.locator('.editor-instance .margin-view-overlays .line-numbers').filter({ hasText: new RegExp(`^\\s*${line}\\s*$`) });
    const box = (await numbers.count()) === 1 ? await numbers.first().boundingBox().catch(() => null) : null;
    const drawn: { y: number; text: string }[] = [];
    for (const lens of await lenses.all()) {
      const b = await lens.boundingBox().catch(() => null);
      if (b) drawn.push({ y: b.y, text: flat(await lens.innerText()) });
    }
    seen = `line ${line} at ${box?.y} (${await numbers.count()} numbers), lenses ${JSON.stringify(drawn)}`;
    return box ? drawn.find((l) => l.y < box.y && box.y - l.y < 40)?.text : undefined;
  };
  const lensTextAbove = (line: number) => until(`a lens above line ${line}`, () => lensAbove(line)).catch((e: Error) => assert.fail(`${e.message}: ${seen}`));
  assert.equal(await lensTextAbove(approvalLine), '1 violation in 2× · attested');
  assert.equal(await lensTextAbove(headingLine), 'exercised 2× · attested');
  assert.equal(await lensTextAbove(schemaLine), 'exercised 2× · attested');
  t.diagnostic(`screenshot: ${await screenshot(page, 'conformance-lenses')}`);

  await press(page, 'Control+Shift+M');
  const rows = page.locator('.markers-panel .monaco-list-row');
  const ours = rows.filter({ has: page.locator('.marker-source', { hasText: /^agents-md conformance$/ }) });
  await until('the Problems panel lists the conformance violation', async () => ((await ours.count()) > 0 ? true : undefined), 2 * DEFAULT_TIMEOUT_MS);
  assert.equal(await ours.count(), 1, 'one violated clause, one row');
  const row = ours.first();
  assert.equal(flat(await row.locator('.marker-code').innerText()), '/tools/1/requires_approval');
  assert.match(flat(await row.locator('.marker-message').innerText()), /^approval of `?create_approval_draft`? violated once in production traces: Run write-without-approval called `?create_approval_draft`? without an approval recorded for that call\./);
  assert.match(flat(await row.innerText()), new RegExp(`\\[Ln ${approvalLine}, Col \\d+\\]`));
  // The evidence, as related information under the row: the run, its trace and the span.
  const evidence = rows.filter({ hasText: /run write-without-approval · trace [0-9a-f]{32} · span [0-9a-f]{16}/ });
  await until('the run and span under the violation', async () => ((await evidence.count()) > 0 ? true : undefined));
  // It opens the trace file at the line the span was read from (the exporter wrote one request: line 1).
  assert.match(flat(await evidence.first().innerText()), /^agent\.otlp\.jsonl\s*\[Ln 1, Col 1\]/);
  t.diagnostic(`screenshot: ${await screenshot(page, 'conformance-problems')}`);
  passed();
});
