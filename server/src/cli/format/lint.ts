/** `agents-md lint`'s output formats (docs/cli.md, "Output formats"), one formatter each. */
import type { ConfigProblem } from '../../service/index.ts';
import type { FileReport } from '../report.ts';
import type { Formatters } from './registry.ts';
import { formatText } from './text.ts';
import { formatJson } from './json.ts';
import { formatSarif } from './sarif.ts';
import { formatCodeQuality } from './codeQuality.ts';
import { formatGithub } from './github.ts';
import { formatRulesJson, formatRulesText } from './rules.ts';

/** What `lint` found: the reports shown (errors only with `--quiet`), and what stopped files from being linted. */
export interface LintOutput {
  readonly shown: readonly FileReport[];
  /** Paths in SARIF, Code Quality and GitHub annotations are relative to it. */
  readonly root: string;
  readonly configProblems: readonly ConfigProblem[];
  readonly problems: readonly string[];
  /** No file was linted because of the problems on standard error. */
  readonly nothingLinted: boolean;
}

export const LINT_FORMATS: Formatters<LintOutput> = {
  // Nothing linted because of the problems on standard error: no "✔ no problems in 0 files" beside them.
  text: (o, c) => (o.nothingLinted ? '' : formatText(o.shown, c)),
  json: (o, c) => formatJson(o.shown, c.cwd, c.lang),
  sarif: (o, c) => formatSarif(o.shown, { root: o.root, configProblems: o.configProblems, problems: o.problems, lang: c.lang }),
  codequality: (o, c) => formatCodeQuality(o.shown, o.root, c.lang),
  github: (o, c) => formatGithub(o.shown, o.root, c.lang),
};

/** `agents-md rules`: the reference has no result of its own. */
export const RULES_FORMATS: Formatters<void> = {
  text: (_, c) => formatRulesText(c.lang),
  json: (_, c) => formatRulesJson(c.lang),
};
