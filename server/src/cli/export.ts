/**
 * `agents-md export <contract> --to openai-tools|anthropic-tools|mcp-tools|json-schema`: the
 * contract's tools (and, where the target has a place for them, its system prompt and output
 * schema) as JSON for a runtime (docs/providers.md, "Exports"), on standard output or in a file.
 */
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { EXPORT_TARGETS, exportContract, format, validateContract, type ExportTarget, type Lang } from '../service/index.ts';
import { loadContract } from '../node/dryRunHost.ts';
import { InputError } from '../node/inputError.ts';
import { displayPath } from './report.ts';
import { errorLine } from './terminal.ts';
import { guarded } from './guarded.ts';
import { EXIT } from './exitCodes.ts';

interface ExportOptions {
  readonly to: ExportTarget;
  readonly output?: string;
}

async function runExport(contract: string, options: ExportOptions, lang: Lang): Promise<void> {
  const cwd = process.cwd();
  const loaded = await loadContract(resolve(cwd, contract), cwd);
  const file = displayPath(cwd, loaded.path);
  // A free-form or empty AGENTS.md has no tools or prompt to export: a default would pass for one.
  if (loaded.model.kind === 'freeform') throw new InputError('cli.export.notContract', { file });
  // A tool a ❌ boundary forbids is never exported; the rule that finds the contradiction names it.
  const forbidden = new Set(validateContract(loaded.model).filter((d) => d.code === 'forbidden-tool-declared').map((d) => String(d.args?.['name'])));
  if (forbidden.size > 0) errorLine(format('cli.export.forbidden', { file, tools: [...forbidden].join(', ') }, lang));
  const output = `${JSON.stringify(exportContract(loaded.model, options.to, forbidden), null, 2)}\n`;
  if (!options.output) {
    process.stdout.write(output);
    return;
  }
  const target = resolve(cwd, options.output);
  writeFileAtomic(target, output, {}, options.output);
  errorLine(format('cli.export.written', { file: displayPath(cwd, target) }, lang));
}

export function registerExportCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  program
    .command('export')
    .description(t('cli.export.description'))
    .usage(t('cli.usage.export'))
    .argument('<contract>', t('cli.export.contract'))
    .addOption(new Option('--to <target>', t('cli.export.to')).choices(EXPORT_TARGETS).makeOptionMandatory())
    .option('-o, --output <file>', t('cli.export.output'))
    .addHelpText('after', ['', t('cli.export.exitCodes')].join('\n'))
    .action(
      guarded(setExitCode, lang, async (contract: string, options: ExportOptions) => {
        await runExport(contract, options, lang);
        setExitCode(EXIT.OK);
      }),
    );
}
