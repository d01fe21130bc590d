// `agents-md --help`, `help [command]`, `<command> --help` and `--version` are answered by the
// launcher from generated texts without loading the CLI bundle (server/src/cli/quickHelp.ts,
// docs/performance.md, "Start-up"). Whatever it answers must be what the real program prints:
// checked here for every command in both languages and for random command lines; that it is kept
// up to date is test/generated.test.ts's job, that the launcher uses it test/cliStartup.test.ts's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { quickAnswer } from '../server/src/cli/quickHelp.ts';
import { cliLang } from '../server/src/cli/lang.ts';
import { commandPaths, programOutput } from '../scripts/helpTexts.ts';

const ENV = { LANG: 'C.UTF-8' };
const PIPE = { isTTY: false };

/** The real program's stdout for `args`, as cli/main.ts runs it, when it exits 0 with nothing on stderr. */
function real(args: readonly string[]): string | undefined {
  const { lang, unknown } = cliLang(args, ENV, () => undefined);
  if (unknown !== undefined) return undefined;
  const r = programOutput(lang, args);
  return r.code === 0 && r.stderr === '' ? r.stdout : undefined;
}

test('every command\'s help, in both languages and every form, is answered and is the real help', () => {
  const paths = commandPaths();
  assert.ok(paths.length > 10 && paths.some((p) => p.join(' ') === 'trace fork'), paths.join(', '));
  for (const path of paths) {
    const forms = [[...path, '--help'], [...path, '-h']];
    if (path.length <= 1) assert.equal(quickAnswer(['help', ...path], ENV, () => undefined, PIPE), undefined, '`help [command]` is left to the real program');
    for (const form of forms) {
      for (const args of [form, ['--lang', 'zh-cn', ...form], [...form, '--lang=zh'], ['--lang', 'en', ...form]]) {
        const answer = quickAnswer(args, ENV, () => undefined, PIPE);
        assert.notEqual(answer, undefined, `answered: ${args.join(' ')}`);
        assert.equal(answer, real(args), args.join(' '));
      }
    }
  }
  assert.match(quickAnswer(['lint', '--help'], { LC_ALL: 'zh_CN.UTF-8' }, () => undefined, PIPE)!, /退出码/);
});

test('--version and -V', () => {
  for (const args of [['--version'], ['-V'], ['--lang', 'zh-cn', '-V']]) assert.equal(quickAnswer(args, ENV, () => undefined, PIPE), real(args));
});

test('a terminal of another width than the texts\' gets the real program; one of 80 columns the texts', () => {
  assert.equal(quickAnswer(['--help'], ENV, () => undefined, { isTTY: true, columns: 120 }), undefined);
  assert.equal(quickAnswer(['--help'], ENV, () => undefined, { isTTY: true, columns: 80 }), real(['--help']));
});

test('anything but a request for help or the version is left to the real program', () => {
  for (const args of [[], ['lint'], ['lint', 'a.md', '--help'], ['--lang', 'xx', '--help'], ['--lang'], ['--', '--help'], ['lint', '--format', 'json', '--help'], ['nope', '--help'], ['help', 'trace', 'fork', 'x']]) {
    assert.equal(quickAnswer(args, ENV, () => undefined, PIPE), undefined, args.join(' '));
  }
});

test('property: on any command line, an answer is exactly what the real program prints', () => {
  const word = fc.constantFrom('--help', '-h', 'help', '--version', '-V', '--lang', '--lang=zh-cn', '--lang=xx', 'zh-cn', 'en', 'lint', 'diff', 'trace', 'fork', 'rules', '--format', 'json', 'a.md', '--', '--quiet');
  fc.assert(
    fc.property(fc.array(word, { maxLength: 5 }), (args) => {
      const answer = quickAnswer(args, ENV, () => undefined, PIPE);
      if (answer !== undefined) assert.equal(answer, real(args), args.join(' '));
    }),
    { numRuns: 400 },
  );
});
