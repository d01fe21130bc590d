/**
 * The display languages of agents-md and how a locale tag picks one (docs/localisation.md). English is the
 * source language of every message; Simplified Chinese is shipped complete.
 */

/** A shipped display language, as VS Code spells it (`vscode.env.language`, LSP `locale`). */
export type Lang = 'en' | 'zh-cn';

/**
 * The shipped language a locale tag asks for, or undefined when none fits. Accepts BCP 47 tags
 * (`zh-CN`, `zh-Hans-CN`, `en-GB`), POSIX locales (`zh_CN.UTF-8`, `en_US@euro`) and VS Code's
 * lower-case ids (`zh-cn`). Chinese in the Simplified script (`zh`, `zh-cn`, `zh-sg`, `zh-hans…`)
 * is `zh-cn`; Traditional Chinese (`zh-tw`, `zh-hk`, `zh-hant…`) is not shipped, as in VS Code,
 * which also looks for a `zh-tw` bundle there. `C` and `POSIX` are English.
 */
export function resolveLang(tag: string | undefined): Lang | undefined {
  if (!tag) return undefined;
  const t = tag.trim().replace(/[.@].*$/, '').replace(/_/g, '-').toLowerCase();
  if (t === 'c' || t === 'posix' || t === 'en' || t.startsWith('en-')) return 'en';
  if (t === 'zh' || t === 'zh-cn' || t === 'zh-sg' || t.startsWith('zh-hans') || t.startsWith('zh-cn-') || t.startsWith('zh-sg-')) return 'zh-cn';
  return undefined;
}

/**
 * The language of a command-line process when `--lang` is not given: the first of `LC_ALL`,
 * `LC_MESSAGES` and `LANG` that is set (POSIX precedence for message catalogues), else the
 * runtime's default locale (`Intl`, which reads the same variables or the OS setting on Windows
 * and macOS). A locale that names no shipped language means English. `env` and `intlLocale` are
 * passed in so that this stays pure; `intlLocale` is asked only when no variable is set (asking
 * ICU costs a few ms; by DateTimeFormat, as it once was, about 30 ms of every CLI run).
 */
export function langFromEnvironment(env: Readonly<Record<string, string | undefined>>, intlLocale: () => string | undefined): Lang {
  const posix = [env['LC_ALL'], env['LC_MESSAGES'], env['LANG']].find((v) => v !== undefined && v !== '');
  return resolveLang(posix ?? intlLocale()) ?? 'en';
}
