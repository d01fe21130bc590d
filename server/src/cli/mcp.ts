/**
 * `agents-md mcp [--root DIR]`: the MCP server on standard input and output (docs/mcp.md). The
 * root (default: the current folder) is the only folder its tools read, and its `.agents-md/runs/`
 * the only place they write.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type Lang } from '../service/index.ts';
import { format } from '../service/host.ts';
import { TOOL_VERSION } from './meta.ts';
import { errorLine } from './terminal.ts';
import { EXIT } from './exitCodes.ts';

export function registerMcpCommand(program: Command, lang: Lang, setExitCode: (code: number) => void): void {
  const t = (id: string) => format(id, {}, lang);
  program
    .command('mcp')
    .description(t('cli.mcp.description'))
    .option('--root <dir>', t('cli.mcp.root'))
    .addHelpText('after', ['', t('cli.mcp.exitCodes')].join('\n'))
    .action(async (options: { root?: string }) => {
      const root = resolve(process.cwd(), options.root ?? '.');
      if (!(await stat(root).then((s) => s.isDirectory(), () => false))) {
        errorLine(format('cli.error.rootNotDirectory', { root: options.root ?? '.' }, lang));
        setExitCode(EXIT.USAGE);
        return;
      }
      // The MCP SDK is loaded by this command only (docs/performance.md, "Start-up").
      const { serveMcpStdio } = await import('../mcp/server.ts');
      await serveMcpStdio(root, lang, TOOL_VERSION);
      setExitCode(EXIT.OK);
    });
}
