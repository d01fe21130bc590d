import { before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from './cli.ts';

/**
 * For a protocol test file: the language server bundled into a scratch folder and a copy of
 * samples/procurement-analyzer as its workspace, made before the tests and removed after them.
 */
export function useSampleServer(tag: string) {
  const outdir = mkdtempSync(join(tmpdir(), `agents-md-lsp-${tag}-`));
  const ws = mkdtempSync(join(tmpdir(), `agents-md-ws-${tag}-`));
  before(() => {
    execFileSync(process.execPath, ['esbuild.mjs', '--only', 'server', '--outdir', outdir], { cwd: REPO });
    cpSync(join(REPO, 'samples', 'procurement-analyzer'), ws, { recursive: true });
  });
  after(() => {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(ws, { recursive: true, force: true });
  });
  return {
    serverPath: join(outdir, 'server.cjs'),
    ws,
    contractUri: pathToFileURL(join(ws, 'AGENTS.md')).href,
    snapshotUri: pathToFileURL(join(ws, 'snapshots', 'procurement.snapshot.yaml')).href,
  };
}
