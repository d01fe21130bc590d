// Run agent in a real VS Code (docs/vscode.md, docs/dry-run.md): samples/procurement-analyzer (a contract
// with its snapshots) opened in code-server. The ▶ Run agent code lens is clicked and the query
// "large-purchase-rejected" picked, twice; each run pauses at the "Large purchase"
// HUMAN_IN_THE_LOOP gate and asks in a modal dialog. Closing the dialog decides nothing: the run
// stays paused and the Agent Run view offers the decision. The first run is approved by clicking
// Approve on the paused row; every kind of row of its trace is then clicked (a row that names a
// clause shows it in the contract at its line, the others open their detail; no error
// notification). The second run is rejected with the view title's Reject; a third, of a query that
// expects HUMAN_TIMEOUT, is let time out from the dialog. The paused row shows
// who decided what; the trace files are on disk under .agents-md/runs/. Last, F2 on a tool in the
// contract renames it in the snapshot file too.
//
//   bash test/e2e/setup.sh                                   # once
//   node --import tsx --test test/e2e/run.e2e.ts            # from the repo root
//
// Skips with the reason printed when the tools are not installed (E2E_REQUIRE=1 makes that a
// failure). Screenshots: test-results/e2e/run-*.png.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  DEFAULT_TIMEOUT_MS, e2eSkipReason, goToLine, lineOf, openFileFromExplorer, packageRepoExtension, press, REPO_DIR, runQueryToQuestion, screenshot, startWorkbench, until,
  type Page,
} from './codeServer.ts';

const SAMPLE_DIR = join(REPO_DIR, 'samples', 'procurement-analyzer');
const QUERY = 'large-purchase-rejected';
const VIEW = '.pane:has(.pane-header[aria-label*="Agent Run"])';
const NLS = JSON.parse(await readFile(join(REPO_DIR, 'package.nls.json'), 'utf8')) as Record<string, string>;
const CONTRACT = await readFile(join(SAMPLE_DIR, 'AGENTS.md'), 'utf8');
const SNAPSHOT = 'snapshots/procurement.snapshot.yaml';

const skip = e2eSkipReason();
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The 1-based line of the active editor's cursor, from the status bar ("Ln 12, Col 3"). */
async function cursorLine(page: Page): Promise<number> {
  return Number(/Ln (\d+)/.exec(await page.locator('[id="status.editor.selection"]').first().innerText().catch(() => ''))?.[1] ?? 0);
}

/** Puts the contract's cursor on line 1, so that a reveal shows as a move. */
async function cursorHome(page: Page): Promise<void> {
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await press(page, 'Control+Home');
  await until('the cursor on line 1', async () => ((await cursorLine(page)) === 1 ? true : undefined));
}

/** Error notifications on screen (toasts): a click must raise none. */
async function errorToasts(page: Page): Promise<string[]> {
  return ((await page.locator('.notification-toast').filter({ has: page.locator('.codicon-error') }).allInnerTexts()) as string[]).map(flat);
}

/** Runs the agent on the query from the code lens and waits for the modal HITL question. */
async function runUntilQuestion(t: TestContext, page: Page) {
  const t0 = Date.now();
  const dialog = await runQueryToQuestion(page, QUERY);
  t.diagnostic(`HITL question after ${Date.now() - t0} ms: ${JSON.stringify(flat(await dialog.innerText()))}`);
  return dialog;
}

/**
 * Closes the question with Escape and checks what stays: the run paused (a paused row, no
 * outcome) with Approve and Reject on offer. Nothing can change the run until it is decided, so
 * what the test sees after its click is the click's doing.
 */
async function closeQuestion(page: Page, dialog: Awaited<ReturnType<typeof runUntilQuestion>>) {
  await press(page, 'Escape');
  await dialog.waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
  const rows = page.locator(`${VIEW} .monaco-list-row`);
  const paused = rows.filter({ has: page.locator('.codicon-debug-pause') }).filter({ hasText: 'paused for a human' }).first();
  await paused.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  assert.equal(await rows.filter({ hasText: `${QUERY} · ` }).count(), 0, 'no outcome while the decision is open');
  assert.doesNotMatch(flat(await paused.innerText()), /approved by|rejected by/);
  return paused;
}

test('e2e run: a HITL pause approved on its row and rejected from the view title; every kind of trace row clicked; rename reaches the snapshot', { skip, timeout: 540_000 }, async (t: TestContext) => {
  const { vsix, ms: packageMs } = await packageRepoExtension();
  t.diagnostic(`npm run package: ${packageMs} ms -> ${vsix}`);
  const workspace = await mkdtemp(join(tmpdir(), 'e2e-run-ws-'));
  await cp(SAMPLE_DIR, workspace, { recursive: true });
  t.after(() => rm(workspace, { recursive: true, force: true }));
  const { page, passed } = await startWorkbench(t, 'run', {
    workspaceDir: workspace, extensions: [vsix],
    settings: { 'editor.minimap.enabled': false, 'agentsMd.trace.server': 'messages', 'agentsMd.versionAdvice': false },
  });
  await openFileFromExplorer(page, 'AGENTS.md');
  const rows = page.locator(`${VIEW} .monaco-list-row`);

  // Run 1: the question closed, the run waits; Approve on the paused row decides.
  let dialog = await runUntilQuestion(t, page);
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-hitl')}`);
  let paused = await closeQuestion(page, dialog);
  // The whole side bar for the trace: the Semantic Diff view folded away.
  await page.locator('.pane-header[aria-label*="Semantic Diff"][aria-expanded="true"]').first().click().catch(() => undefined);
  await paused.hover();
  const approve = paused.locator(`.actions .action-label[aria-label="${NLS['command.approveDecision.title']}"]`);
  await approve.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-paused')}`);
  await approve.click();
  const approved = rows.filter({ hasText: `${QUERY} · OK` }).first();
  await approved.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  paused = rows.filter({ hasText: 'paused for a human' }).first();
  const decidedApprove = flat(await paused.innerText());
  t.diagnostic(`the paused row once approved: ${JSON.stringify(decidedApprove)}`);
  assert.match(decidedApprove, /approved by \S+/);
  assert.equal(await paused.locator('.codicon-debug-pause').count(), 0, 'no longer paused');

  // Every kind of row, clicked as a user would: a row naming a clause shows it at its line; a row
  // naming none opens its detail (its payload) and leaves the editor where it was.
  const texts = ((await rows.allInnerTexts()) as string[]).map(flat);
  t.diagnostic(`Agent Run view rows: ${JSON.stringify(texts)}`);
  const kinds: [kind: string, row: RegExp, line: number | undefined][] = [
    ['RUN', /^run \S+: AGENTS\.md/, undefined],
    ['TRIGGER', /^matched /, lineOf(CONTRACT, '(?<department_id>').line],
    ['MEMORY', /^vendor_catalog: healthy/, lineOf(CONTRACT, '- pool: vendor_catalog').line],
    ['PROMPT', /^system prompt:/, undefined],
    ['STEP', /^step 1: model calls check_inventory/, undefined],
    ['TOOL', /^check_inventory \{/, lineOf(CONTRACT, '### `check_inventory`').line],
    ['PROTOCOL', /^HUMAN_IN_THE_LOOP "Large purchase"/, lineOf(CONTRACT, '| Large purchase |').line],
    ['HUMAN', /^paused for a human/, lineOf(CONTRACT, '| Large purchase |').line],
    ['CHECK', /^output: output_format json passed/, lineOf(CONTRACT, '- type: output_format').line],
    ['OUTPUT', /^final answer:/, undefined],
    ['OUTCOME', /^success OK:/, undefined],
  ];
  for (const [kind, label, line] of kinds) {
    const row = rows.filter({ has: page.locator('.label-name, .monaco-icon-label-container').filter({ hasText: label }) }).first();
    await row.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
    assert.match(flat(await row.innerText()), kind === 'HUMAN' ? /approved by/ : new RegExp(`${kind}$`), `the ${kind} row`);
    await cursorHome(page);
    await row.click();
    if (line) {
      await until(`the ${kind} row shows its clause at line ${line}`, async () => ((await cursorLine(page)) === line ? true : undefined));
    } else {
      await until(`the ${kind} row opens its detail`, async () => ((await row.getAttribute('aria-expanded')) === 'true' ? true : undefined));
      assert.equal(await cursorLine(page), 1, `the ${kind} row names no clause: the editor stays`);
      await row.click(); // folds the detail again, to keep the list short
    }
    assert.deepEqual(await errorToasts(page), [], `no error after clicking the ${kind} row`);
    t.diagnostic(`${kind} row: ${line ? `clause at line ${line}` : 'detail opened'}`);
  }
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-trace-clicked')}`);

  // Run 2: the question closed again; the view title's Reject decides.
  dialog = await runUntilQuestion(t, page);
  await closeQuestion(page, dialog);
  const header = page.locator(`${VIEW} .pane-header`).first();
  await header.hover();
  const reject = header.locator(`.actions .action-label[aria-label="${NLS['command.rejectDecision.title']}"]`);
  await reject.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await reject.click();
  const outcome = rows.filter({ hasText: `${QUERY} · HUMAN_REJECTED` }).first();
  await outcome.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const decidedReject = flat(await rows.filter({ hasText: 'paused for a human' }).first().innerText());
  t.diagnostic(`the paused row once rejected: ${JSON.stringify(decidedReject)}`);
  assert.match(decidedReject, /rejected by \S+/);
  assert.ok((await page.locator(`${VIEW} .monaco-list-row .codicon-error`).count()) > 0, 'failures are highlighted');
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-trace')}`);

  // The run's outcome names the clause that decided it: a click opens it.
  await cursorHome(page);
  await outcome.click();
  await until('the contract shown at the clause', async () => ((await cursorLine(page)) > 1 ? true : undefined));
  assert.deepEqual(await errorToasts(page), []);

  // The trace files, as the CLI writes them, with who decided what.
  const runs = (await readdir(join(workspace, '.agents-md', 'runs'))).sort();
  assert.equal(runs.length, 2, `one run folder per run: ${runs.join(', ')}`);
  const decisions = await Promise.all(runs.map(async (r) => {
    const events = (await readFile(join(workspace, '.agents-md', 'runs', r, 'trace.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const response = events.find((e) => e.event_type === 'human_response');
    assert.ok(response?.payload.decided_by, 'the trace names who decided');
    return response?.payload.decision;
  }));
  assert.deepEqual(decisions, ['approve', 'reject']);

  // F2 on a tool in the contract: the snapshot that scripts its calls follows.
  const before = await readFile(join(workspace, SNAPSHOT), 'utf8');
  assert.match(before, /call: check_inventory/);
  const at = lineOf(CONTRACT, '### `check_inventory`');
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await goToLine(page, at.line, at.column + 6);
  await press(page, 'F2');
  const renameInput = page.locator('.rename-box input, .rename-input').first();
  await renameInput.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  await renameInput.fill('check_stock');
  await press(page, 'Enter');
  const after = await until('the snapshot renamed on disk', async () => {
    const text = await readFile(join(workspace, SNAPSHOT), 'utf8');
    return /call: check_stock/.test(text) ? text : undefined;
  });
  assert.doesNotMatch(after, /check_inventory/);
  await until('the contract renamed in the editor', async () => (/check_stock/.test(await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText()) ? true : undefined));
  t.diagnostic(`screenshot: ${await screenshot(page, 'run-rename')}`);

  // Run 3: nobody signs the new vendor off; the dialog's Let It Time Out gives what the query expects.
  const timeoutQuery = 'new-vendor-no-sign-off';
  await cursorHome(page); // the ▶ Run agent lens is above line 1
  dialog = await runQueryToQuestion(page, timeoutQuery);
  await dialog.locator('.monaco-button', { hasText: /^Let It Time Out$/ }).click();
  const timedOut = rows.filter({ hasText: `${timeoutQuery} · HUMAN_TIMEOUT` }).first();
  await timedOut.waitFor({ state: 'visible', timeout: 2 * DEFAULT_TIMEOUT_MS });
  const summary = flat(await page.locator(`${VIEW} .monaco-list-row`).first().innerText());
  t.diagnostic(`after Let It Time Out: ${JSON.stringify(summary)}; screenshot: ${await screenshot(page, 'run-timeout')}`);
  assert.match(flat(await rows.filter({ hasText: 'paused for a human' }).first().innerText()), /let time out by \S+/);
  passed();
});
