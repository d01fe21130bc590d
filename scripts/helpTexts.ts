/**
 * server/src/cli/helpTexts.json: what `agents-md [command...] --help` prints in each language, at
 * the width commander uses when the output is not a terminal, so that the launcher answers help
 * without loading the CLI bundle (server/src/cli/quickHelp.ts).
 */
import { buildProgram } from '../server/src/cli/main.ts';
import { HELP_WIDTH } from '../server/src/cli/quickHelp.ts';
import { type Command } from 'commander';
import { type Lang } from '../server/src/service/index.ts';

const LANGS: readonly Lang[] = ['en', 'zh-cn'];

/** What the real program writes for `args` in `lang` at the help width, and its exit code (for help and the version only). */
export function programOutput(lang: Lang, args: readonly string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  let code = 0;
  const program = buildProgram(lang, (c) => (code = c));
  const capture = (command: Command): void => {
    command.configureOutput({ writeOut: (s) => void (stdout += s), writeErr: (s) => void (stderr += s), getOutHelpWidth: () => HELP_WIDTH, getErrHelpWidth: () => HELP_WIDTH });
    command.commands.forEach(capture);
  };
  capture(program);
  // Help and the version are printed while parsing, before any action (which would need parseAsync).
  try {
    program.parse(['node', 'agents-md', ...args]);
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? 2;
  }
  return { code, stdout, stderr };
}

/** Every command path of the program: `[]`, `['lint']`, `['trace', 'fork']`, … */
export function commandPaths(): string[][] {
  const walk = (command: Command, path: string[]): string[][] => [path, ...command.commands.flatMap((c) => walk(c, [...path, c.name()]))];
  return walk(buildProgram('en', () => undefined), []);
}

export function renderHelpTexts(): string {
  const texts: Record<string, Record<string, string>> = {};
  for (const lang of LANGS) {
    texts[lang] = {};
    for (const path of commandPaths()) texts[lang][path.join(' ')] = programOutput(lang, [...path, '--help']).stdout;
  }
  return `${JSON.stringify(texts, null, 1)}\n`;
}
