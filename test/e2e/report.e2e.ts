/**
 * The workspace report's HTML page (agents-md report -f html) opened in headless Chromium through
 * playwright-core: it loads nothing but itself, draws the matrix and the sharing graph, and is
 * screenshotted into test-results/ (and into docs/images/workspace-report.png and
 * workspace-graph.png with
 * UPDATE_DOCS_IMAGES=1, the picture of docs/workspace.md). Needs only Chromium and
 * playwright-core from test/e2e/node_modules (bash test/e2e/setup.sh); skips, saying why, without.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO, useCliBundle } from '../helpers/cli.ts';
import { generateWorkspace } from '../../bench/generateWorkspace.ts';
import { loadPlaywright } from './codeServer.ts';

const CHROMIUM = '/usr/bin/chromium';
const E2E = join(REPO, 'test', 'e2e');

function skipReason(): string | false {
  const missing = [
    ...(existsSync(CHROMIUM) ? [] : [`Chromium not found at ${CHROMIUM}`]),
    ...(existsSync(join(E2E, 'node_modules', 'playwright-core', 'package.json')) ? [] : ['playwright-core not installed in test/e2e/node_modules']),
  ];
  if (missing.length === 0) return false;
  if (process.env.E2E_REQUIRE === '1') throw new Error(`E2E_REQUIRE=1 but ${missing.join('; ')}`);
  console.log(`# report e2e skipped: ${missing.join('; ')}: run \`bash test/e2e/setup.sh\``);
  return missing.join('; ');
}

const skip = skipReason();
const { bundle: cli, scratch } = useCliBundle('report-e2e', { skip });

test('the HTML report renders in Chromium from the file alone, matrix and graph drawn', { skip }, async () => {
  const ws = scratch.workspace(generateWorkspace(36));
  const run = await cli.run(ws, 'report', '-f', 'html', '-o', 'report.html');
  assert.equal(run.code, 0, run.stderr);
  const { chromium } = loadPlaywright();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r: { url(): string }) => requests.push(r.url()));
    const url = pathToFileURL(join(ws, 'report.html')).href;
    await page.goto(url, { waitUntil: 'load' });
    assert.deepEqual(requests, [url], 'the page loads nothing else');
    assert.equal(await page.title(), 'Contracts report');
    // 36 contracts × 6 clauses in the matrix, each a coloured cell; the graph has a node per contract.
    const cells = await page.locator('svg').first().locator('rect[rx="3"]').count();
    assert.equal(cells, 36 * 6);
    const box = await page.locator('svg').nth(1).boundingBox();
    assert.ok(box && box.width > 600 && box.height > 36 * 15, `graph box ${JSON.stringify(box)}`);
    const red = await page.locator('svg').nth(1).locator('line[stroke="#c62828"]').count();
    assert.ok(red >= 6, `conflict edges drawn in red: ${red}`);
    const out = join(REPO, 'test-results');
    mkdirSync(out, { recursive: true });
    const shots = { 'workspace-report.png': page, 'workspace-graph.png': page.locator('svg').nth(1) };
    for (const [name, what] of Object.entries(shots)) {
      await what.screenshot({ path: join(out, name) });
      if (process.env.UPDATE_DOCS_IMAGES === '1') copyFileSync(join(out, name), join(REPO, 'docs', 'images', name));
    }
  } finally {
    await browser.close();
  }
});
