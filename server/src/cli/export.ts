/**
 * `agents-md export <contract> --to openai-tools|anthropic-tools|mcp-tools|json-schema`: the
 * contract's tools (and, where the target has a place for them, its system prompt and output
 * schema) as JSON for a runtime (docs/providers.md, "Exports"), on standard output or in a file.
 */
import { writeFileAtomic } from '../node/atomicWrite.ts';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { EXPORT_TARGETS, exportContract, type ExportTarget, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { loadContract } from '../node/dryRunHost.ts';
import { InputError } from '../node/inputError.ts';
import { displayPath } from './report.ts';
import { errorLine } from './terminal.ts';
import { guarded } from './guarded.ts';
import { EXIT } from './exitCodes.ts';
import { checkFolder, forbiddenTools, schemaPath, validatedCedar } from './cedar.ts';

/** The Cedar targets (docs/enforcement.md): text, not JSON, validated by Cedar's engine. */
const CEDAR_TARGETS = ['cedar', 'cedar-schema'] as const;
type Target = ExportTarget | (typeof CEDAR_TARGETS)[number];

interface ExportOptions {
  readonly to: Target;
  readonly output?: string;
  readonly check?: string;
  readonly json?: boolean;
}

async function write(cwd: string, file: string, text: string, lang: Lang): Promise<void> {
  const target = resolve(cwd, file);
  writeFileAtomic(target, text, {}, file);
  errorLine(format('cli.export.written', { file: displayPath(cwd, target) }, lang));
}

async function runExport(contract: string, options: ExportOptions, lang: Lang): Promise<number> {
  const cwd = process.cwd();
  const loaded = await loadContract(resolve(cwd, contract), cwd);
  const file = displayPath(cwd, loaded.path);
  // A free-form or empty AGENTS.md has no tools or prompt to export: a default would pass for one.
  if (loaded.model.kind === 'freeform') throw new InputError('cli.export.notContract', { file });
  // A tool a ❌ boundary forbids is never exported; the rule that finds the contradiction names it.
  const found = forbiddenTools(loaded.model);
  const forbidden = new Set(found.map((f) => f.name));
  if (options.check && options.to !== 'cedar') throw new InputError('cli.cedar.checkNeedsCedar', {});
  if (options.to === 'cedar' || options.to === 'cedar-schema') {
    // In Cedar a forbidden tool is a forbid policy at its boundary's line, not a tool left out.
    const x = validatedCedar(loaded.model, file, found, lang);
    if (options.check) return checkFolder(x, loaded.path, options.check, forbidden, lang, options.json === true);
    const text = options.to === 'cedar' ? x.policies : x.schema;
    if (!options.output) process.stdout.write(text);
    else {
      await write(cwd, options.output, text, lang);
      if (options.to === 'cedar') await write(cwd, schemaPath(options.output), x.schema, lang);
    }
    return EXIT.OK;
  }
  if (forbidden.size > 0) errorLine(format('cli.export.forbidden', { file, tools: [...forbidden].join(', ') }, lang));
  const output = `${JSON.stringify(exportContract(loaded.model, options.to, forbidden), null, 2)}\n`;
  if (!options.output) process.stdout.write(output);
  else await write(cwd, options.output, output, lang);
  return EXIT.OK;
}

export function registerExportCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  program
    .command('export')
    .description(t('cli.export.description'))
    .usage(t('cli.usage.export'))
    .argument('<contract>', t('cli.export.contract'))
    .addOption(new Option('--to <target>', t('cli.export.to')).choices([...EXPORT_TARGETS, ...CEDAR_TARGETS]).makeOptionMandatory())
    .option('-o, --output <file>', t('cli.export.output'))
    .option('--check <dir>', t('cli.export.check'))
    .option('--json', t('cli.export.json'))
    .addHelpText('after', ['', t('cli.export.exitCodes')].join('\n'))
    .action(
      guarded(setExitCode, lang, async (contract: string, options: ExportOptions) => {
        setExitCode(await runExport(contract, options, lang));
      }),
    );
}
