// Exit codes live in one table (server/src/cli/exitCodes.ts, docs/cli.md "Exit codes"): the
// numbers every command returns and, per command, the codes its help lists with their meaning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXIT, EXIT_HELP, exitCodesHelp } from '../server/src/cli/exitCodes.ts';

test('every code a command documents is a code of the one table', () => {
  const codes = new Set<number>(Object.values(EXIT));
  for (const [command, rows] of Object.entries(EXIT_HELP)) for (const [code] of rows) assert.ok(codes.has(code), `${command}: ${code}`);
});

test('the help lists the codes aligned, a message\'s further lines under its first, in English and in Chinese', () => {
  assert.equal(
    exitCodesHelp('run', 'en'),
    '\nExit codes:\n  0    the run succeeded: the answer passed every check\n  1    the run failed with an outcome code (MEMORY_UNAVAILABLE, SAFETY_VIOLATION, …)\n  2    usage error, or a contract or snapshot that cannot be read or is invalid\n  3    a FAILURE_PROTOCOL entry with a fallback answered instead\n  130  cancelled (Ctrl-C)',
  );
  assert.equal(
    exitCodesHelp('lint', 'zh-cn'),
    '\n退出码：\n  0  没有错误，且警告数不超过 --max-warnings 的允许值\n  1  发现错误，或警告数超过 --max-warnings 的允许值\n  2  用法错误（未知选项、无效取值）、路径无法读取或没有匹配任何文件、\n     配置文件无效，或内部错误',
  );
});
