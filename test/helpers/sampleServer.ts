import { before, after } from 'node:test';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBundles, repo as REPO, SERVER_PATH } from './bundles.ts';

/**
 * For a protocol test file: the run's language server bundle (helpers/bundles.ts) and a copy of
 * samples/procurement-analyzer as its workspace, made before the tests and removed after them.
 */
export function useSampleServer(tag: string) {
  const ws = mkdtempSync(join(tmpdir(), `agents-md-ws-${tag}-`));
  before(() => {
    ensureBundles();
    cpSync(join(REPO, 'samples', 'procurement-analyzer'), ws, { recursive: true });
  });
  after(() => {
    rmSync(ws, { recursive: true, force: true });
  });
  return {
    serverPath: SERVER_PATH,
    ws,
    contractUri: pathToFileURL(join(ws, 'AGENTS.md')).href,
    snapshotUri: pathToFileURL(join(ws, 'snapshots', 'procurement.snapshot.yaml')).href,
  };
}
