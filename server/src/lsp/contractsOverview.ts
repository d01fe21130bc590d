/**
 * The Contracts overview's request (docs/workspace.md, "In the editor"): the workspace report over
 * every contract of the workspace, built as `agents-md report` builds it (each contract linted,
 * open documents as the editor has them, snapshots under the first root) and rendered by the
 * service's `reportHtml` as the interactive page, whose links the client opens.
 */
import type { CancellationToken, Connection } from 'vscode-languageserver';
import { buildReport, reportHtml, type LanguageService, type ReportContractInput } from '../service/index.ts';
import { format } from '../service/host.ts';
import { fileUri, uriToPath } from '../node/nodeFileSystem.ts';
import { join } from 'node:path';
import { displayPath } from '../node/paths.ts';
import { reportSnapshots } from '../node/reportSnapshots.ts';
import { CONTRACTS_OVERVIEW, type ContractsOverviewParams, type ContractsOverviewResult } from './customRequests.ts';

export interface ContractsOverviewHost {
  readonly lang: () => string;
  readonly service: () => LanguageService | undefined;
  /** The workspace folders' paths; paths on the page are relative to the first. */
  readonly roots: () => readonly string[];
  /** A contract's bytes: the open document's text, else the file. */
  readonly read: (uri: string) => Promise<Uint8Array | undefined>;
}

export function registerContractsOverview(connection: Connection, host: ContractsOverviewHost): void {
  connection.onRequest(CONTRACTS_OVERVIEW, async (p: ContractsOverviewParams, token: CancellationToken): Promise<ContractsOverviewResult> => {
    const lang = host.lang();
    const title = format('report.title', {}, lang);
    const service = host.service();
    const root = host.roots()[0];
    const contracts: ReportContractInput[] = [];
    for (const uri of service ? await service.workspace.contractUris() : []) {
      // One contract at a time, yielding between them, so that typing is answered meanwhile.
      await new Promise((r) => setImmediate(r));
      if (token.isCancellationRequested) break;
      const bytes = await host.read(uri).catch(() => undefined);
      const path = uriToPath(uri);
      if (!bytes || !path) continue;
      const linted = await service!.lintBytes(uri, bytes);
      if (linted.model && linted.model.kind !== 'freeform') contracts.push({ uri, path: root ? displayPath(root, path) : path, model: linted.model, diagnostics: linted.diagnostics });
    }
    const snapshots = root ? await reportSnapshots(root, new Set(contracts.map((c) => c.uri))) : [];
    const config = root && service ? (await service.workspace.configFor(fileUri(join(root, 'AGENTS.md')))).config : undefined;
    const report = buildReport(contracts, snapshots, config?.resourceRoots);
    return { title, html: reportHtml(report, lang, { nonce: p.nonce, interactive: true }), contracts: contracts.map((c) => c.uri) };
  });
}
