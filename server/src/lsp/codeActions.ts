import { CodeActionKind, type CancellationToken, type CodeAction } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { applyEdits, editsBetween, MAX_FIX_PASSES, NOT_CANCELLED, type TextEditResult } from '../service/index.ts';
import { format } from '../service/host.ts';
import { contract, withPreset, type DocumentStates } from './documentState.ts';
import { SNAPSHOT_FILE, type ServerContext } from './serverContext.ts';

/** The code action kind of "fix all" (docs/rules.md, "Fixes"): `editor.codeActionsOnSave` selects it. */
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.agentsMd`;

/** Quick fixes and refactorings of the diagnostics in a range, and fix-all. */
export function registerCodeActions(ctx: ServerContext, docs: DocumentStates): void {
  const { connection, documents, session } = ctx;
  /**
   * Every safe fix of the document at once, as edits (none when nothing is fixable): applied to its
   * own result until nothing is left, as `lint --fix` does (two fallbacks appended at one place
   * are made one per pass), then sent as the edits between the text and the result.
   */
  /** The document's facts with its preset, as the diagnostics saw them. */
  const factsFor = async (doc: TextDocument) => withPreset(await docs.factsOf(doc, docs.stateOf(doc)), await ctx.settings.of(doc.uri));
  const fixAllEdits = async (doc: TextDocument, token: CancellationToken | undefined): Promise<TextEditResult[]> => {
    const service = session.service!;
    const facts = await factsFor(doc);
    const before = doc.getText();
    let [text, model, passes, first] = [before, docs.stateOf(doc).model, 0, [] as readonly TextEditResult[]];
    for (; passes < MAX_FIX_PASSES; passes++) {
      const { edits } = service.fixAll({ uri: doc.uri, model, facts }, { lang: session.lang, diagnostics: service.validate(model, facts) }, token ?? NOT_CANCELLED);
      if (edits.length === 0) break;
      if (passes === 0) first = edits;
      text = applyEdits(text, edits);
      model = service.parse(doc.uri, text);
    }
    // One pass: its own edits, exactly where the rules put them; more: the lines that differ.
    return passes > 1 ? editsBetween(before, text) : [...first];
  };
  const fixAllAction = async (doc: TextDocument, kind: string, token: CancellationToken | undefined): Promise<CodeAction[]> => {
    const edits = await fixAllEdits(doc, token);
    return edits.length === 0 ? [] : [{ title: format('action.fixAll', {}, session.lang), kind, edit: { changes: { [doc.uri]: edits } } }];
  };
  /**
   * Ctrl+. offers fix-all beside a finding's own fixes. The light bulb asks on every cursor move
   * over a finding, so where the client resolves actions the edits (every fix checked against its
   * result) are computed only when the action is chosen; offered when a safe fix exists.
   */
  const fixAllQuickFix = async (doc: TextDocument, token: CancellationToken): Promise<CodeAction[]> => {
    if (!session.codeActionResolve) return fixAllAction(doc, CodeActionKind.QuickFix, token);
    const service = session.service!;
    const state = docs.stateOf(doc);
    const facts = await factsFor(doc);
    const offered = service.hasSafeFix(contract(doc, state, facts), { lang: session.lang, diagnostics: service.validate(state.model, facts) }, token);
    return offered ? [{ title: format('action.fixAll', {}, session.lang), kind: CodeActionKind.QuickFix, data: { fixAllOf: doc.uri } }] : [];
  };
  connection.onCodeActionResolve(async (action, token) => {
    const uri = (action.data as { fixAllOf?: unknown } | undefined)?.fixAllOf;
    const doc = typeof uri === 'string' ? documents.get(uri) : undefined;
    if (!doc || !session.service) return action;
    return { ...action, edit: { changes: { [doc.uri]: await fixAllEdits(doc, token) } } };
  });
  connection.onCodeAction(async (p, token) => {
    const { service } = session;
    // Fix-on-save (`editor.codeActionsOnSave: { "source.fixAll.agentsMd": "explicit" }`): the rules' safe fixes.
    const wantsFixAll = p.context.only?.some((k) => FIX_ALL_KIND === k || FIX_ALL_KIND.startsWith(`${k}.`)) ?? false;
    const doc = documents.get(p.textDocument.uri);
    const contractDoc = doc && service && !SNAPSHOT_FILE.test(doc.uri) ? doc : undefined;
    if (wantsFixAll) return contractDoc ? fixAllAction(contractDoc, FIX_ALL_KIND, token) : [];
    const ours = p.context.diagnostics.filter((d) => d.source === 'agents-md' && typeof d.code === 'string');
    // Ctrl+. on a finding also offers every safe fix at once, last (as ESLint's "Fix all auto-fixable problems").
    const all = contractDoc && ours.length > 0 ? await fixAllQuickFix(contractDoc, token) : [];
    // The facts check a safe fix against its result (a rename into a second TOOLS is not offered as safe).
    const facts = contractDoc ? await docs.lastFacts(contractDoc, docs.stateOf(contractDoc)) : undefined;
    const own = docs.withDoc(p.textDocument.uri, [], (doc, s) => {
      const refs = ours.map((d) => ({ code: String(d.code), range: d.range, args: ((d.data as { args?: Record<string, string | number> } | undefined)?.args) ?? {} }));
      return session.service!.codeActions(contract(doc, s, facts), p.range, { lang: session.lang, diagnostics: refs }, token).map((a): CodeAction => ({
        title: a.title,
        kind: a.kind === 'quickfix' ? CodeActionKind.QuickFix : a.kind === 'refactor' ? CodeActionKind.RefactorRewrite : CodeActionKind.Source,
        diagnostics: ours.filter((d) => a.fixes.includes(String(d.code))),
        edit: { changes: { [doc.uri]: [...a.edits] } },
        ...(a.isPreferred ? { isPreferred: true } : {}),
      }));
    });
    return [...own, ...all];
  });
}
