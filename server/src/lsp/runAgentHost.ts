import { CodeLensRefreshRequest } from 'vscode-languageserver';
import type { ModelSettings } from '../service/index.ts';
import pkg from '../../../package.json' with { type: 'json' };
import { contract, type DocumentStates } from './documentState.ts';
import type { RunAgentHost } from './runAgent.ts';
import type { ServerContext } from './serverContext.ts';

/** What Run agent reads from the server: open models, lenses, the model settings and where spans go. */
export function runAgentHost(ctx: ServerContext, docs: DocumentStates): RunAgentHost {
  const { connection, documents, session } = ctx;
  return {
    lang: () => session.lang,
    refreshLenses: () => (session.lensRefresh ? void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined) : undefined),
    roots: ctx.rootPaths,
    model: (uri) => docs.openModel(uri),
    lenses: async (uri, token) => {
      const doc = documents.get(uri);
      if (!doc || !docs.openModel(uri)) return [];
      const document = contract(doc, docs.stateOf(doc));
      // The cost lens waits for its token counts (a process of the server's own).
      return docs.tokens.withCounts((countTokens) => session.service!.codeLenses({ ...document, countTokens }, { lang: session.lang }, token));
    },
    modelSettings: async (uri) => {
      // The configuration file's `model`, then the editor's settings over it (docs/model-providers.md).
      const fromConfig = session.service ? (await session.service.workspace.configFor(uri)).config.model : undefined;
      if (!ctx.settings.supported) return [fromConfig];
      const v = (await connection.workspace.getConfiguration({ scopeUri: uri, section: 'agentsMd.model' }).catch(() => null)) as Record<string, unknown> | null;
      // Unset editor settings are empty strings: they must not override the defaults.
      return [fromConfig, v ? (Object.fromEntries(Object.entries(v).filter(([, x]) => x !== '' && x !== null && x !== undefined)) as ModelSettings) : undefined];
    },
    otlpEndpoint: async (uri) => {
      const endpoint = (await ctx.settings.of(uri)).otlpEndpoint;
      return typeof endpoint === 'string' ? endpoint : '';
    },
    origin: { name: 'agents-md', version: pkg.version },
  };
}
