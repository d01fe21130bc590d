import { CodeActionKind, type CodeAction } from 'vscode-languageserver';
import { NOT_CANCELLED } from '../service/index.ts';
import { format } from '../service/host.ts';
import { contract, withPreset, type DocumentStates } from './documentState.ts';
import { SNAPSHOT_FILE, type ServerContext } from './serverContext.ts';

/** The code action kind of "fix all" (docs/rules.md, "Fixes"): `editor.codeActionsOnSave` selects it. */
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.agentsMd`;

/** Quick fixes and refactorings of the diagnostics in a range, and fix-all. */
export function registerCodeActions(ctx: ServerContext, docs: DocumentStates): void {
  const { connection, documents, session } = ctx;
  connection.onCodeAction(async (p, token) => {
    const { service, lang } = session;
    // Fix-on-save (`editor.codeActionsOnSave: { "source.fixAll.agentsMd": "explicit" }`): the rules' safe fixes.
    const wantsFixAll = p.context.only?.some((k) => FIX_ALL_KIND === k || FIX_ALL_KIND.startsWith(`${k}.`)) ?? false;
    const doc = documents.get(p.textDocument.uri);
    if (wantsFixAll && doc && service && !SNAPSHOT_FILE.test(doc.uri)) {
      const state = docs.stateOf(doc);
      const facts = withPreset(await docs.factsOf(doc, state), await ctx.settings.of(doc.uri));
      const { edits } = service.fixAll(contract(doc, state, facts), { lang, diagnostics: service.validate(state.model, facts) }, token ?? NOT_CANCELLED);
      return edits.length === 0 ? [] : [{ title: format('action.fixAll', {}, lang), kind: FIX_ALL_KIND, edit: { changes: { [doc.uri]: edits } } }];
    }
    // The facts check a safe fix against its result (a rename into a second TOOLS is not offered as safe).
    const facts = doc && service && !SNAPSHOT_FILE.test(doc.uri) ? await docs.lastFacts(doc, docs.stateOf(doc)) : undefined;
    return docs.withDoc(p.textDocument.uri, [], (doc, s) => {
      const ours = p.context.diagnostics.filter((d) => d.source === 'agents-md' && typeof d.code === 'string');
      const refs = ours.map((d) => ({ code: String(d.code), range: d.range, args: ((d.data as { args?: Record<string, string | number> } | undefined)?.args) ?? {} }));
      return session.service!.codeActions(contract(doc, s, facts), p.range, { lang: session.lang, diagnostics: refs }, token).map((a): CodeAction => ({
        title: a.title,
        kind: a.kind === 'quickfix' ? CodeActionKind.QuickFix : a.kind === 'refactor' ? CodeActionKind.RefactorRewrite : CodeActionKind.Source,
        diagnostics: ours.filter((d) => a.fixes.includes(String(d.code))),
        edit: { changes: { [doc.uri]: [...a.edits] } },
        ...(a.isPreferred ? { isPreferred: true } : {}),
      }));
    });
  });
}
