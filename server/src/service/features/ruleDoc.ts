/**
 * A rule's own text (docs/rules.md, one section per rule), from the rule catalogue: the same
 * Markdown the generated reference holds, so a rule code in the editor can open that rule alone,
 * rendered, in the user's language (docs/vscode.md, "Rule documentation").
 */
import { ruleByCode } from '../validate/catalogue.ts';
import type { Rule } from '../validate/rule.ts';
import { format } from '../l10n/format.ts';
import { ruleDocId, ruleMessageId } from '../validate/messages.ts';

/** A fenced block that holds fences itself (`~~~~`). */
export function fence(body: string, lang = 'markdown'): string {
  return `~~~~${lang}\n${body.endsWith('\n') ? body : body + '\n'}~~~~`;
}

/** The rule's section of docs/rules.md, under an H2 of its code. */
export function ruleSection(r: Rule, lang: string): string {
  const t = (id: string, args: Readonly<Record<string, string>> = {}) => format(id, args, lang);
  const meta = [
    t('docs.rule.severity', { severity: t(`severity.${r.severity}`) }),
    t('docs.rule.preset', { preset: r.preset ?? 'recommended' }),
    ...(r.fixKind ? [r.fixKind === 'safe' ? t('docs.rule.fix.safe') : t('docs.rule.fix.quickfix')] : []),
    t('docs.rule.source', { source: t(ruleDocId(r.code, 'source')) }),
    ...(r.needsWorkspace ? [t('docs.rule.workspace')] : []),
    ...(r.scope === 'document' ? [t('docs.rule.notPartial')] : []),
  ];
  const out = [`## ${r.code}`, '', t(ruleDocId(r.code, 'summary')), '', meta.join(' · '), '', t(ruleDocId(r.code, 'description')), ''];
  out.push(t('docs.rule.message', { message: t(r.code) }), '');
  // Every message a user may read is here, so that a search for its text finds the rule.
  const variants = Object.keys(r.messages).filter((v) => v !== 'default');
  if (variants.length > 0) out.push(t('docs.rule.variants'), '', ...variants.map((v) => t('docs.rule.variant', { message: t(ruleMessageId(r.code, v)) })), '');
  if (r.examples.bad) {
    const ws = r.examples.workspace;
    if (ws?.config) out.push(t('docs.rule.withConfig'), '', fence(JSON.stringify(ws.config, null, 2), 'json'), '');
    if (ws?.files) out.push(t('docs.rule.withFiles', { files: Object.keys(ws.files).map((f) => `\`${f}\``).join(', ') }), '');
    out.push(t('docs.rule.bad'), '', fence(r.examples.bad), '');
    if (r.examples.at) out.push(t('docs.rule.at', { at: `\`\` ${r.examples.at.replace(/\n/g, '↵')} \`\`` }), '');
    if (r.examples.fixed === true) out.push(t('docs.rule.fixedIsGood'), '');
    else if (r.examples.fixed) out.push(t('docs.rule.fixed'), '', fence(r.examples.fixed), '');
    out.push(t('docs.rule.good'), '', fence(r.examples.good), '');
  } else {
    out.push(t('docs.rule.noExample'), '');
  }
  return out.join('\n');
}

/** The rule's text as a page of its own (an H1 of its code), or undefined for an unknown code. */
export function ruleMarkdown(code: string, lang = 'en'): string | undefined {
  const rule = ruleByCode(code);
  return rule ? ruleSection(rule, lang).replace(/^## /, '# ') : undefined;
}
