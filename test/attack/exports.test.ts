// Attack suite, exports (docs/robustness.md, "Exports"): `trace export --otlp URL` to a receiver on
// 127.0.0.1 that answers with its headers and then one byte every 500 ms, never ending. The
// export has one deadline (`--timeout`, retries included): the command ends at it, exit 1, and
// leaves no socket that keeps the process alive.
// Run: node --import tsx --test test/attack/exports.test.ts
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useCliBundle } from '../helpers/cli.ts';
import { CONTRACT, SNAPSHOT } from '../helpers/dryRun.ts';
import { tricklingReceiver } from '../helpers/otlp.ts';

const { bundle: cli, scratch } = useCliBundle('attack-cli');

describe('a receiver that trickles', () => {
  test('trace export --otlp URL --timeout 1500 ends at the deadline: exit 1 and a clear message', async () => {
    const ws = scratch.workspace({ 'AGENTS.md': CONTRACT, 'snapshots/orders.snapshot.yaml': SNAPSHOT });
    const run = await cli.run(ws, 'run', 'AGENTS.md', '-s', 'snapshots/orders.snapshot.yaml', '--json');
    assert.equal(run.code, 0, run.stderr);
    const trace = (JSON.parse(run.stdout) as { trace: string }).trace;
    const otlp = await tricklingReceiver();
    try {
      // Before: no end (the exporter's per-attempt timeout never trips on a trickle); the CLI
      // helper's own limit of 60 s would end the test with a failure.
      const r = await cli.run(ws, 'trace', 'export', trace, '--otlp', otlp.url, '--timeout', '1500');
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /did not accept the spans \(no answer within 1500 ms\)/);
      assert.equal(otlp.requests(), 1);
    } finally {
      await otlp.close();
    }
  });
});
