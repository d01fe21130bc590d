/**
 * The CLI's display language (docs/localisation.md): `--lang <lang>` (or `--lang=<lang>`) anywhere on the
 * command line, else the environment's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, then Intl). It is
 * read before commander parses, because the help texts commander prints must already be in it.
 */
import { type Lang } from '../service/index.ts';
import { langFromEnvironment, resolveLang } from '../service/host.ts';

/** The language to use, and the `--lang` value that named no shipped language, if any. */
export interface CliLang {
  readonly lang: Lang;
  readonly unknown?: string;
}

export function cliLang(args: readonly string[], env: Readonly<Record<string, string | undefined>>, intlLocale: () => string | undefined): CliLang {
  const fallback = langFromEnvironment(env, intlLocale);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const value = a === '--lang' ? args[i + 1] : a.startsWith('--lang=') ? a.slice('--lang='.length) : undefined;
    if (value === undefined) continue;
    const lang = resolveLang(value);
    return lang ? { lang } : { lang: fallback, unknown: value };
  }
  return { lang: fallback };
}
