/**
 * The README's quoted CLI output is what the CLI prints: each summary line (`✖ 53 problems …`)
 * and each quoted finding, for the command the README gives (`npm run demo` lints samples/; the
 * Chinese excerpt lints samples/broken with --lang zh-cn), linted in process the way `agents-md
 * lint` does. UPDATE_EXPECT=1 rewrites the summary lines (test/helpers/expect.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLanguageService } from '../server/src/service/index.ts';
import { recheckAnalyzer } from '../server/src/service/host.ts';
import { createNodeFileSystem, fileUri } from '../server/src/node/nodeFileSystem.ts';
import { displayPath } from '../server/src/node/paths.ts';
import { collectFiles } from '../server/src/cli/collectFiles.ts';
import { lintFiles } from '../server/src/cli/lintFiles.ts';
import { formatText } from '../server/src/cli/format/text.ts';
import { repo } from './helpers/bundles.ts';
import { expectSpan } from './helpers/expect.ts';

const README = join(repo, 'README.md');

/** What `agents-md lint ...paths` prints on stdout in `repo`, without colour. */
async function lintOutput(paths: readonly string[], lang: string): Promise<string> {
  const service = createLanguageService({ fs: createNodeFileSystem(() => [repo]), roots: [fileUri(repo)], analyzeRegex: recheckAnalyzer });
  const collected = await collectFiles(paths, { cwd: repo, root: repo, workspace: service.workspace, lang });
  const run = await lintFiles(service, collected.files, (p) => displayPath(repo, p), lang, repo);
  return formatText(run.reports, { cwd: repo, color: false, lang });
}

/**
 * The ```text block of the README that contains `marker`, or the first one after it when the
 * marker is the sentence introducing it (line numbers inside the block move as samples change).
 */
function quoted(marker: string): { start: number; lines: string[] } {
  const text = readFileSync(README, 'utf8');
  const at = text.indexOf(marker);
  assert.ok(at >= 0, `README.md quotes ${marker}`);
  const before = text.lastIndexOf('```text\n', at);
  const inside = before >= 0 && text.indexOf('\n```', before + 1) > at;
  const start = (inside ? before : text.indexOf('```text\n', at)) + '```text\n'.length;
  return { start, lines: text.slice(start, text.indexOf('\n```', start)).split('\n') };
}

/**
 * The excerpt as the CLI prints it today: each quoted finding replaced by the CLI's line for the
 * same file and rule (at the same position if it still has one there), the summary line by the
 * CLI's, other lines (the command) kept.
 */
function current(excerpt: readonly string[], output: readonly string[]): string[] {
  const findings = output.filter((l) => /^samples\//.test(l));
  return excerpt.map((line) => {
    const m = /^(\S+?):(\d+:\d+) \S+ (\S+) /.exec(line);
    if (m) {
      const sameRule = findings.filter((f) => f.startsWith(`${m[1]}:`) && f.split(' ')[2] === m[3]);
      return sameRule.find((f) => f.startsWith(`${m[1]}:${m[2]} `)) ?? sameRule[0] ?? `${line} (the CLI no longer reports this)`;
    }
    return /^[✖✔] /.test(line) ? output.at(-1)! : line;
  });
}

for (const { name, marker, paths, lang } of [
  { name: 'the English excerpt of npm run demo (agents-md lint samples/)', marker: 'An excerpt of what it prints:', paths: ['samples/'], lang: 'en' },
  { name: 'the Chinese excerpt (agents-md lint --lang zh-cn samples/broken)', marker: '$ npx agents-md lint --lang zh-cn samples/broken', paths: ['samples/broken'], lang: 'zh-cn' },
]) {
  test(`README: ${name} is what the CLI prints`, async () => {
    const output = (await lintOutput(paths, lang)).trimEnd().split('\n');
    const { start, lines } = quoted(marker);
    assert.ok(lines.some((l) => /^[✖✔] /.test(l)), 'the excerpt ends with the summary line');
    const excerpt = lines.join('\n');
    expectSpan(README, start, start + excerpt.length, current(lines, output).join('\n'), name);
  });
}
