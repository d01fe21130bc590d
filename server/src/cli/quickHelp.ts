/**
 * `agents-md --help`, `--version`, `help [command]` and `<command> --help` answered without the
 * CLI bundle (docs/performance.md, "Start-up"): bin/agents-md.cjs asks this small bundle
 * (dist/quickHelp.cjs) first and loads dist/cli.cjs only when it answers nothing. The texts are
 * what the real program prints (helpTexts.json, written by `npm run generate` from
 * `buildProgram`; test/generated.test.ts fails when they drift, test/quickHelp.test.ts checks
 * every form answered here against the real program). Commander wraps help to the terminal's
 * width; the texts are for 80 columns, which is what it uses when the output is not a terminal,
 * so a terminal of another width gets the real program.
 */
import { langFromEnvironment, resolveLang, type Lang } from '../service/l10n/lang.ts';
import { TOOL_VERSION } from './meta.ts';
import HELP_TEXTS from './helpTexts.json' with { type: 'json' };

/** For the launcher, which reads the locale only when quickAnswer asks. */
export { defaultLocale } from './defaultLocale.ts';

/** The help texts by language and command path (`''` for the program, `'trace fork'`). */
export type HelpTexts = Readonly<Record<Lang, Readonly<Record<string, string>>>>;

/** The width the texts are wrapped for: commander's when the output is not a terminal. */
export const HELP_WIDTH = 80;

/** Where the answer goes: only its width matters. */
export interface Output {
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * The language `--lang` names (anywhere, as cli/lang.ts reads it) or the environment's, and the
 * arguments without `--lang`; undefined when `--lang` names no shipped language or has no value
 * (the real program says so) or when `--` ends the options.
 */
function withoutLang(args: readonly string[], fallback: Lang): { lang: Lang; rest: string[] } | undefined {
  let lang: Lang | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    const value = a === '--lang' ? args[++i] : a.startsWith('--lang=') ? a.slice('--lang='.length) : undefined;
    if (value === undefined && (a === '--lang' || a.startsWith('--lang='))) return undefined;
    if (value === undefined) rest.push(a);
    else if (lang === undefined) {
      lang = resolveLang(value);
      if (lang === undefined) return undefined;
    }
  }
  return { lang: lang ?? fallback, rest };
}

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * What the CLI prints on stdout for `args` (the arguments after the script) when they only ask
 * for help or the version, else undefined (then the real program runs). Exit code 0.
 */
export function quickAnswer(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  intlLocale: () => string | undefined,
  out: Output,
  texts: HelpTexts = HELP_TEXTS as HelpTexts,
): string | undefined {
  if (out.isTTY && out.columns !== HELP_WIDTH) return undefined;
  const parsed = withoutLang(args, langFromEnvironment(env, intlLocale));
  if (!parsed) return undefined;
  const { lang, rest } = parsed;
  if (rest.length === 1 && (rest[0] === '--version' || rest[0] === '-V')) return `${TOOL_VERSION}\n`;
  let path: string[] | undefined;
  // `help [command]` is left to the real program: in one CI run its output there differed from
  // these texts (not reproduced alone); `--help` and `-h` are what start-up is measured on.
  if (rest.length >= 1 && rest[0] !== 'help' && HELP_FLAGS.has(rest.at(-1)!)) path = rest.slice(0, -1);
  if (!path || path.some((p) => p.startsWith('-'))) return undefined;
  return texts[lang][path.join(' ')];
}
