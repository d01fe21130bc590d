/**
 * The runtime's default locale, from the Intl service quickest to start (DateTimeFormat loads time
 * zones and calendars first: about 30 ms of a CLI run); asked only when no locale variable is set
 * (langFromEnvironment). Used by the CLI and, through dist/quickHelp.cjs, by the launcher.
 */
export const defaultLocale = (): string => new Intl.PluralRules().resolvedOptions().locale;
