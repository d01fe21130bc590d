/**
 * `agents-md check-mcp <contract> -- <command…>` or `--url http://127.0.0.1:…` (docs/enforcement.md,
 * "A live MCP server"): starts the server over stdio (or connects over Streamable HTTP) with the
 * official MCP SDK client, reads every page of `tools/list`, and reports its drift from the
 * contract (service/export/mcpDrift.ts) as `lint` reports findings: text, JSON or SARIF, and the
 * same exit codes.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { mcpDrift, type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { loadContract } from '../node/dryRunHost.ts';
import { fileUri } from '../node/nodeFileSystem.ts';
import { countSeverities, type FileReport } from './report.ts';
import { LINT_FORMATS } from './format/lint.ts';
import { render, withFormatOptions, type FormatOptions } from './format/registry.ts';
import { forbiddenTools } from './cedar.ts';
import { withColorOptions } from './options.ts';
import { useColor } from './terminal.ts';
import { guarded } from './guarded.ts';
import { EXIT } from './exitCodes.ts';
import { TOOL_NAME, TOOL_VERSION } from './meta.ts';

interface CheckOptions extends FormatOptions {
  readonly url?: string;
  readonly color?: boolean;
}

async function runCheck(contract: string, server: readonly string[], options: CheckOptions, lang: Lang): Promise<number> {
  const cwd = process.cwd();
  const loaded = await loadContract(resolve(cwd, contract), cwd);
  // The MCP SDK's client is loaded by this command only (docs/performance.md, "Start-up").
  const { listTools, transportFor } = await import('../node/mcpToolList.ts');
  const tools = await listTools(transportFor(server, options.url), { name: TOOL_NAME, version: TOOL_VERSION });
  const diagnostics = mcpDrift(loaded.model, tools, forbiddenTools(loaded.model));
  const reports: FileReport[] = [{ path: loaded.path, uri: fileUri(loaded.path), text: loaded.text, diagnostics }];
  // The drift is findings in the contract, so it has lint's formats.
  process.stdout.write(render(LINT_FORMATS, options, { shown: reports, root: cwd, configProblems: [], problems: [], nothingLinted: false }, { cwd, color: useColor(options.color), lang }));
  return countSeverities(reports).error > 0 ? EXIT.FAILED : EXIT.OK;
}

export function registerCheckMcpCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  const command = program
    .command('check-mcp')
    .description(t('cli.checkMcp.description'))
    .usage(t('cli.usage.checkMcp'))
    .argument('<contract>', t('cli.checkMcp.contract'))
    .argument('[server...]', t('cli.checkMcp.server'));
  withFormatOptions(command, LINT_FORMATS, lang)
    .option('--url <url>', t('cli.checkMcp.url'));
  withColorOptions(command, lang)
    .addHelpText('after', ['', t('cli.checkMcp.exitCodes')].join('\n'))
    .action(
      guarded(setExitCode, lang, async (contract: string, server: string[], options: CheckOptions) => {
        setExitCode(await runCheck(contract, server, options, lang));
      }),
    );
}
