/** `agents-md lint --stats`: per contract, the tokens each model request carries (docs/providers.md, "Token cost"), on standard error. */
import { requestCost, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import type { FileReport } from './report.ts';
import { displayPath } from './report.ts';
import { errorLine } from './terminal.ts';

export function printStats(reports: readonly FileReport[], cwd: string, lang: Lang): void {
  for (const r of reports) {
    if (!r.model || r.model.kind !== 'contract') continue;
    const c = requestCost(r.model);
    const file = displayPath(cwd, r.path);
    errorLine(format('cli.stats.tokens', { file, total: c.total, tools: c.tools, prompt: c.systemPrompt, encoding: c.encoding }, lang));
    if (c.budget !== undefined) errorLine(format('cli.stats.budget', { file, percent: Math.round((c.total / c.budget) * 100), budget: c.budget }, lang));
  }
}
