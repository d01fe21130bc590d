// Chinese and English throughout (docs/localisation.md). What this file enforces:
//
// 1. Completeness. Every message of every registered catalogue (l10n/bundle.l10n.json, generated
//    from them; test/generated.test.ts keeps it current) and every client string has a Simplified
//    Chinese text in l10n/bundle.l10n.zh-cn.json, and that file has nothing else; both sides use
//    the same arguments; the Chinese is Chinese (or listed below as language-neutral). The same
//    for the manifest: every user-visible string of package.json is a `%key%` defined in
//    package.nls.json and package.nls.zh-cn.json. (The schemas' titles and descriptions in both
//    languages are checked by test/schemas.test.ts.) A catalogue registered later (the dry run's,
//    the semantic diff's) is covered without touching this file.
// 2. Every message id the sources use is defined by a catalogue, and every finding of every rule
//    example reads as a whole Chinese sentence with all its arguments filled.
// 3. No concatenation of translated pieces: the result of `format(…)`, `t(…)` or `l10n.t(…)` is
//    never an operand of `+` or `.concat`, nor interpolated into a template literal; and no
//    template starts or ends with a space (the mark of a fragment meant to be joined). Translated
//    texts may be stacked as separate lines or paragraphs (`[…].join('\n')`) and passed whole as
//    the argument of another message (a rule's summary in "Source: {source}"). English prose
//    outside the catalogues is caught by a heuristic (three or more words in a string literal).
// 4. The pieces: locale resolution, plural forms, display width and wrapping of CJK text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { createLanguageService, NOT_CANCELLED, parseContract, type DiagnosticRef, type ParsedContract, type Position } from '../server/src/service/index.ts';
import { RULES, ruleMessageId, duplicateMessageIds, englishMessages, englishTemplate, MESSAGE_SET_NAMES, registeredMessageSets } from '../server/src/service/host.ts';
import { format, template } from '../server/src/service/l10n/format.ts';
import { fill, placeholders } from '../server/src/service/l10n/template.ts';
import { langFromEnvironment, resolveLang } from '../server/src/service/l10n/lang.ts';
import { localiseDiagnostic } from '../server/src/service/l10n/diagnostics.ts';
import stringWidth from 'string-width';
import { alignColumns, displayWidth, padEndDisplay, wrapDisplay } from '../server/src/service/text/width.ts';
import { clientStrings } from '../scripts/l10nBundle.ts';
import { lintExample } from './helpers/lintExample.ts';
import { TOOLS_AND_HITL } from './helpers/fixtures.ts';

const service = createLanguageService();
const doc = (model: ParsedContract) => ({ uri: 'file:///a.md', model });
const hover = (m: ParsedContract, p: Position, o: { lang?: string }) => service.hover(doc(m), p, o, NOT_CANCELLED);
const completion = (m: ParsedContract, p: Position, o: { lang?: string }) => service.completion(doc(m), p, o, NOT_CANCELLED);
const documentSymbols = (m: ParsedContract, lang: string) => service.documentSymbols(doc(m), { lang }, NOT_CANCELLED);
const codeActions = (m: ParsedContract, diagnostics: readonly DiagnosticRef[], o: { lang?: string }) => service.codeActions(doc(m), diagnostics[0]!.range, { ...o, diagnostics }, NOT_CANCELLED);

const repo = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const readJson = (p: string) => JSON.parse(readFileSync(repo(p), 'utf8')) as Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : (v as { message: string }).message);
const HAN = /\p{Script=Han}/u;

/** Entries whose Chinese text is the English one on purpose: names, codes, links, icons. */
const NEUTRAL = new Set([
  'symbol.frontMatter', // "front matter" is the Markdown term, used as is in the schemas' Chinese texts
  'diff.section.front_matter', // the same term, as the diff names the front matter
  'rule.unrecognised-content.source', // a file name
  'docs.rule.variant', // a list item around a message that is translated itself
  '$(sync~spin) AGENTS.md', '$(pass) AGENTS.md', '$(error) {0} $(warning) {1} AGENTS.md', // icons and the product name
]);

function files(dir: string, ext = '.ts'): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, ext) : p.endsWith(ext) ? [p] : [];
  });
}

/** Source files that are not message sets (rule modules and `*messages.ts` hold English by design). */
const SOURCES = [...files(repo('server/src')), ...files(repo('client/src')), ...files(repo('scripts'))];
const CATALOGUE_FILE = /validate[\\/]rules[\\/]|[\\/]\w*[mM]essages\.ts$/;
const code = (f: string) => readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

// ---------------------------------------------------------------------------------------------
// 1. Completeness

test('every message exists in English and in Simplified Chinese, with the same arguments', () => {
  const en = readJson('l10n/bundle.l10n.json');
  const zh = readJson('l10n/bundle.l10n.zh-cn.json');
  assert.deepEqual(Object.keys(en).filter((k) => !(k in zh)), [], 'in English but not in Chinese');
  assert.deepEqual(Object.keys(zh).filter((k) => !(k in en)), [], 'in Chinese but not in English');
  const problems: string[] = [];
  for (const [id, e] of Object.entries(en)) {
    const [a, b] = [text(e), text(zh[id])];
    const [pa, pb] = [placeholders(a).sort(), placeholders(b).sort()];
    if (pa.join() !== pb.join()) problems.push(`${id}: arguments {${pa.join('}, {')}} in English, {${pb.join('}, {')}} in Chinese`);
    // Untranslated: no Chinese character and the English text as is (full-width punctuation counts as translated).
    if (!HAN.test(b) && b === a && !NEUTRAL.has(id)) problems.push(`${id}: not translated: ${b}`);
    for (const [lang, t] of [['en', a], ['zh-cn', b]] as const) if (t !== t.trim() || !t) problems.push(`${id} (${lang}): empty or padded with spaces, like a fragment: ${JSON.stringify(t)}`);
  }
  assert.deepEqual(problems, []);
});

test('each rule description in Chinese keeps every code span of the English one (names, examples, options)', () => {
  // A Chinese text that lost a code span usually describes an older version of the rule.
  const zh = JSON.parse(readFileSync(new URL('../l10n/bundle.l10n.zh-cn.json', import.meta.url), 'utf8')) as Record<string, string>;
  const stale = RULES.flatMap((r) => {
    const id = `rule.${r.code}.description`;
    const spans = new Set(englishTemplate(id)?.replace(/\\`/g, '').match(/`[^`]+`/g) ?? []);
    const text = (zh[id] ?? '').replace(/\\`/g, '');
    return [...spans].filter((c) => !text.includes(c)).map((c) => `${id}: ${c}`);
  });
  assert.deepEqual(stale, []);
});

test('catalogue ids are unique, and the English bundle holds every catalogue message and client string', () => {
  assert.deepEqual(registeredMessageSets(), MESSAGE_SET_NAMES, 'the service index and the CLI (cli/messages.ts, through scripts/l10nBundle.ts) load every owner of a message set');
  assert.deepEqual(duplicateMessageIds(), []);
  const en = readJson('l10n/bundle.l10n.json');
  for (const [id, t] of englishMessages()) assert.equal(en[id], t, id);
  for (const s of clientStrings()) assert.equal(en[s], s, s);
});

test('the client passes only literal strings to vscode.l10n.t (so that they can be extracted)', () => {
  const bad: string[] = [];
  for (const f of files(repo('client/src'))) for (const m of code(f).matchAll(/\bl10n\.t\(\s*([^'"\s])/g)) bad.push(`${f}: l10n.t(${m[1]}…`);
  assert.deepEqual(bad, []);
  assert.ok(clientStrings().length >= 5);
});

/** Every user-visible string of a VS Code manifest, by JSON path. */
function manifestStrings(pkg: Record<string, any>): [string, unknown][] {
  const out: [string, unknown][] = [['displayName', pkg.displayName]];
  const c = pkg.contributes ?? {};
  (c.commands ?? []).forEach((x: any, i: number) => out.push([`commands[${i}].title`, x.title], [`commands[${i}].category`, x.category]));
  for (const conf of [c.configuration ?? []].flat()) {
    out.push(['configuration.title', conf.title]);
    for (const [k, p] of Object.entries<any>(conf.properties ?? {})) {
      for (const f of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage']) if (p[f] !== undefined) out.push([`${k}.${f}`, p[f]]);
      for (const f of ['enumDescriptions', 'markdownEnumDescriptions']) (p[f] ?? []).forEach((d: unknown, i: number) => out.push([`${k}.${f}[${i}]`, d]));
    }
  }
  for (const [where, list] of Object.entries<any>(c.viewsContainers ?? {})) list.forEach((v: any, i: number) => out.push([`viewsContainers.${where}[${i}].title`, v.title]));
  for (const [where, list] of Object.entries<any>(c.views ?? {})) list.forEach((v: any, i: number) => out.push([`views.${where}[${i}].name`, v.name], ...(v.contextualTitle ? [[`views.${where}[${i}].contextualTitle`, v.contextualTitle] as [string, unknown]] : [])));
  (c.walkthroughs ?? []).forEach((w: any, i: number) => out.push([`walkthroughs[${i}].title`, w.title], [`walkthroughs[${i}].description`, w.description]));
  if (pkg.capabilities?.virtualWorkspaces?.description) out.push(['capabilities.virtualWorkspaces.description', pkg.capabilities.virtualWorkspaces.description]);
  return out;
}

test('the manifest: every user-visible string is a %key% of package.nls.json, translated in package.nls.zh-cn.json', () => {
  const raw = readFileSync(repo('package.json'), 'utf8');
  const pkg = JSON.parse(raw);
  const en = readJson('package.nls.json');
  const zh = readJson('package.nls.zh-cn.json');
  assert.deepEqual(manifestStrings(pkg).filter(([, v]) => typeof v !== 'string' || !/^%[\w.-]+%$/.test(v)), [], 'strings written in package.json instead of a %key%');
  const used = new Set([...raw.matchAll(/"%([\w.-]+)%"/g)].map((m) => m[1]!));
  assert.deepEqual([...used].filter((k) => !(k in en)), [], '%keys% without an English text');
  assert.deepEqual(Object.keys(en).filter((k) => !used.has(k)), [], 'package.nls.json keys no manifest string uses');
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort(), 'package.nls.json and package.nls.zh-cn.json have the same keys');
  // A walkthrough page's path is checked by the page's own test below.
  for (const [k, v] of Object.entries(zh)) if (k !== 'command.category' && !/^walkthrough\..*\.media$/.test(k)) assert.match(String(v), HAN, `package.nls.zh-cn.json ${k}`);
  assert.equal(pkg.l10n, './l10n', 'VS Code finds the client bundles in l10n/');
});

test('the walkthrough\'s step pages: one per language, the Chinese one in Chinese, quoting commands and the lens by their titles in that language', () => {
  const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8'));
  const steps = pkg.contributes.walkthroughs.flatMap((w: any) => w.steps) as { id: string; media: { markdown?: string } }[];
  for (const [lang, nls] of [['en', readJson('package.nls.json')], ['zh-cn', readJson('package.nls.zh-cn.json')]] as const) {
    const titles = new Set(Object.entries(nls).filter(([k]) => /^command\.\w+\.title$/.test(k)).map(([, v]) => `${nls['command.category']}: ${v}`));
    const lens = format('run.view.lens.run', {}, lang);
    for (const step of steps) {
      const key = /^%([\w.-]+)%$/.exec(step.media.markdown ?? '')?.[1];
      assert.ok(key, `step ${step.id}: its page is a %key%, so that VS Code picks the page of the display language`);
      const path = String(nls[key]);
      assert.equal(path.startsWith(lang === 'en' ? 'media/walkthrough/' : 'media/walkthrough/zh-cn/'), true, `${lang} ${step.id}: ${path}`);
      const page = readFileSync(repo(path), 'utf8');
      if (lang === 'zh-cn') for (const line of page.split('\n').filter((l) => l.trim())) assert.match(line, HAN, `${path}: a line not in Chinese: ${line}`);
      for (const m of page.matchAll(/\*\*(AGENTS\.md: [^*]+)\*\*/g)) assert.ok(titles.has(m[1]!), `${path} quotes “${m[1]}”, which is no command title in ${lang}`);
      for (const m of page.matchAll(/\*\*(▶[^*]+)\*\*/g)) assert.equal(m[1], lens, `${path}: the Run lens reads “${lens}”`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// 2. Ids in use, and every rule finding in Chinese

test('every message id written in the sources is defined by a catalogue', () => {
  const ID = /'((?:cli|hover|completion|action|symbol|lsp|config|docs|severity|related)\.[\w.-]+)'/g;
  const unknown: string[] = [];
  const families = new Set<string>();
  for (const f of SOURCES) {
    const src = code(f);
    for (const m of src.matchAll(ID)) if (englishTemplate(m[1]!) === undefined) unknown.push(`${f}: ${m[1]}`);
    for (const m of src.matchAll(/\b(?:format|t)\(`([\w.-]+)\$\{/g)) families.add(m[1]!);
  }
  assert.deepEqual(unknown, []);
  // Ids built from a value (`severity.${s}`, `hover.name.${kind}`): every value has its message.
  const values: Record<string, readonly string[]> = {
    'severity.': ['error', 'warning', 'info', 'hint'],
    'hover.name.': ['tool', 'pool', 'role', 'entity', 'scenario', 'resource', 'layer'],
    'completion.name.': ['tool', 'pool', 'role', 'entity', 'scenario', 'resource', 'layer'],
    'report.cell.': ['yes', 'no', 'na'],
    'report.clause.': ['pii', 'residency', 'audit', 'hitl', 'budgets', 'failureCodes'],
    'report.item.': ['tool', 'scenario', 'code'],
    'report.kind.': ['pool', 'resource'],
    'prove.obligation.': ['ungated-side-effect', 'dead-gate', 'shadowed-gate', 'vacuous-guard'],
  };
  assert.deepEqual([...families].filter((p) => !values[p]), [], 'an id family this test does not know: add its values above');
  for (const [prefix, vs] of Object.entries(values)) for (const v of vs) assert.ok(englishTemplate(prefix + v), prefix + v);
  for (const r of RULES) for (const part of ['summary', 'description', 'source']) assert.ok(englishTemplate(`rule.${r.code}.${part}`));
});

test('every finding of every rule example is a whole Chinese message with its arguments filled', async () => {
  const problems: string[] = [];
  let checked = 0;
  for (const rule of RULES) {
    if (!rule.examples.bad) continue;
    const r = await lintExample(rule.examples.bad, rule.examples.workspace);
    for (const d of r.diagnostics.map((x) => localiseDiagnostic(x, 'zh-cn'))) {
      checked++;
      const t = template(d.messageId, 'zh-cn')!;
      const unfilled = placeholders(t).filter((p) => !(p in d.args) && !t.includes(`{{${p}}}`) && !/^\d+$/.test(p));
      if (!HAN.test(d.message)) problems.push(`${d.messageId}: ${d.message}`);
      if (unfilled.length) problems.push(`${d.messageId}: no argument for {${unfilled.join('}, {')}}`);
      for (const rel of d.related ?? []) if (!HAN.test(rel.message)) problems.push(`${rel.messageId}: ${rel.message}`);
    }
  }
  assert.ok(checked > 60, `${checked} findings`);
  assert.deepEqual(problems, []);
});

test('the editor features in Chinese: hover, completion details, code action titles, outline', () => {
  const src = `---\ncontract: true\nversion: 1.0.0\n---\n## AGENT_IDENTITY\n\n- **Name**: \`demo\`\n\n${TOOLS_AND_HITL}`;
  const model = parseContract(src);
  const lines = src.split('\n');
  const pos = (needle: string, offset = 1): Position => {
    const line = lines.findIndex((l) => l.includes(needle));
    return { line, character: lines[line]!.indexOf(needle) + offset };
  };
  assert.match(hover(model, pos('## TOOLS', 4), { lang: 'zh-cn' })!.contents, /^\*\*工具\*\*[\s\S]*\n\n字段：`Name`/);
  assert.match(hover(model, pos('Large order'), { lang: 'zh-cn' })!.contents, /^\*\*人工介入场景\*\* `Large order`\n\n声明于第 \d+ 行。\n\n触发条件：amount > 100\n\n所需操作：Manager approves\n\n时限：4h$/);
  const rules = completion(parseContract('<!-- agents-md-disable-next-line \n'), { line: 0, character: 33 }, { lang: 'zh-cn' });
  assert.equal(rules.find((c) => c.label === 'hitl-needs-fallback')?.detail, '错误');
  const row = pos('| Large order |', 2);
  const titles = codeActions(model, [{ code: 'hitl-needs-fallback', range: { start: row, end: row }, args: { scenario: 'Large order', sla: '4h' } }], { lang: 'zh-cn' }).map((a) => a.title);
  assert.deepEqual(titles, ['为 "Large order" 添加 FAILURE_PROTOCOL 兜底条目', '在此代码块中禁用 hitl-needs-fallback', '在此文件中禁用 hitl-needs-fallback']);
  assert.equal(documentSymbols(model, 'zh-cn')[0]!.name, 'front matter');
});

// ---------------------------------------------------------------------------------------------
// 3. No concatenation of translated pieces

const TRANSLATED_CALL = /\b(?:format|t|l10n\.t)\(/g;

/** Places where a translated result is joined with other text by `+`, `.concat` or template interpolation. */
function concatenations(src: string): string[] {
  const found: string[] = [];
  for (const m of src.matchAll(TRANSLATED_CALL)) {
    let depth = 0;
    let end = m.index! + m[0].length - 1;
    for (; end < src.length; end++) {
      if (src[end] === '(') depth++;
      else if (src[end] === ')' && --depth === 0) break;
    }
    // `vscode.l10n.t(`, `this.t(`: the member chain before the call is part of it.
    const before = src.slice(Math.max(0, m.index! - 60), m.index!).replace(/[\w$.]*$/, '').replace(/\s+$/, '');
    const after = src.slice(end + 1).replace(/^\s+/, '');
    const call = src.slice(m.index!, end + 1).replace(/\s+/g, ' ').slice(0, 80);
    // A whole message written as a line (`${format(…)}\n`) is output, not composition.
    const line = /`\$\{$/.test(before) && /^\}\\n`/.test(after);
    if (!line && (/(?:\+|\$\{|\.concat\()$/.test(before) || /^(?:\+|\.concat\()/.test(after))) found.push(call);
  }
  return found;
}

test('the concatenation check finds what it should', () => {
  assert.deepEqual(concatenations("const a = format('x.y') + ' ' + format('x.z');"), ["format('x.y')", "format('x.z')"]);
  assert.deepEqual(concatenations("const b = `${t('hover.labels', { labels })}: ${x}`;"), ["t('hover.labels', { labels })"]);
  assert.deepEqual(concatenations("const c = prefix + vscode.l10n.t('Hello');"), ["l10n.t('Hello')"]);
  assert.deepEqual(concatenations("const d = [format('a.b'), format('a.c')].join('\\n\\n'); const e = format('a.d', { x: format('a.e') });"), []);
  assert.deepEqual(concatenations("write(`${format('a.f', { n })}\\n`);"), [], 'a message written as one line');
});

test('no message is built by concatenating translated fragments', () => {
  const found = SOURCES.flatMap((f) => concatenations(code(f)).map((c) => `${f}: ${c}`));
  assert.deepEqual(found, []);
});

test('no English prose in the product outside the catalogues (heuristic: a string literal with three or more words)', () => {
  // Text inserted into the contract is the contract's (English canonical labels), not the UI's.
  const ALLOWED = [/- \*\*Description\*\*: <what it returns>/, /gets no sign-off \$\{when\}\*\*: → Auto-reject the request/];
  // The skeletons of a new contract and of a new snapshot are contract text as a whole (docs/vscode.md, "Getting started").
  const CONTRACT_TEXT = /features[/\\]scaffold\.ts$|snapshot[/\\]snapshotSkeleton\.ts$/;
  const found: string[] = [];
  // scripts/ are the maintainers' tools; the docs they write are checked through their catalogue.
  const product = [...files(repo('server/src')), ...files(repo('client/src'))];
  for (const f of product.filter((x) => !CATALOGUE_FILE.test(x) && !CONTRACT_TEXT.test(x))) {
    const src = code(f).replace(/\bl10n\.t\(\s*(['"])(?:\\.|(?!\1).)*\1/g, 'l10n.t(');
    for (const m of src.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) {
      const s = m[2]!;
      if (/\b[A-Za-z][a-z]+(?: [a-z]+){2,}\b/.test(s) && !ALLOWED.some((a) => a.test(s))) found.push(`${f}: ${s.slice(0, 80)}`);
    }
  }
  assert.deepEqual(found, []);
});

// ---------------------------------------------------------------------------------------------
// 4. Locale, plurals, display width

test('locale tags resolve to a shipped language', () => {
  const cases: [string | undefined, string | undefined][] = [
    ['zh-cn', 'zh-cn'], ['zh-CN', 'zh-cn'], ['zh_CN.UTF-8', 'zh-cn'], ['zh', 'zh-cn'], ['zh-Hans-CN', 'zh-cn'], ['zh-SG', 'zh-cn'],
    ['zh-TW', undefined], ['zh-Hant', undefined], ['en', 'en'], ['en-GB', 'en'], ['en_US@euro', 'en'], ['C', 'en'], ['POSIX', 'en'],
    ['fr-FR', undefined], ['', undefined], [undefined, undefined],
  ];
  for (const [tag, lang] of cases) assert.equal(resolveLang(tag), lang, String(tag));
  assert.equal(langFromEnvironment({ LC_ALL: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }, () => 'en-US'), 'zh-cn');
  assert.equal(langFromEnvironment({ LC_MESSAGES: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' }, () => 'zh-CN'), 'en', 'LC_MESSAGES before LANG');
  assert.equal(langFromEnvironment({ LC_ALL: '', LANG: 'zh_CN.UTF-8' }, () => 'en-US'), 'zh-cn', 'an empty variable is unset');
  assert.equal(langFromEnvironment({}, () => 'zh-CN'), 'zh-cn', 'Intl when no variable is set');
  assert.equal(langFromEnvironment({ LANG: 'de_DE.UTF-8' }, () => 'zh-CN'), 'en', 'an unshipped locale is English');
  assert.equal(langFromEnvironment({ LANG: 'C.UTF-8' }, () => assert.fail('Intl asked although LANG is set')), 'en', 'Intl (ICU, 30 ms to start) only when no variable is set');
});

test('plural forms: one template says 1 file and 2 files; Chinese has one form', () => {
  const t = '{n, plural, =0 {no files} one {# file} other {# files}} in {dir}';
  assert.equal(fill(t, { n: 0, dir: 'a' }), 'no files in a');
  assert.equal(fill(t, { n: 1, dir: 'a' }), '1 file in a');
  assert.equal(fill(t, { n: 12, dir: 'a' }), '12 files in a');
  assert.equal(fill(t, { dir: 'a' }), '# files in a', 'a missing count shows');
  assert.deepEqual(placeholders(t).sort(), ['dir', 'n']);
  assert.equal(format('cli.summary.problems', { problems: 1, errors: 1, warnings: 0, infos: 0, hints: 0, files: 1 }), '✖ 1 problem (1 error, 0 warnings) in 1 file');
  assert.equal(format('cli.summary.problems', { problems: 5, errors: 0, warnings: 2, infos: 2, hints: 1, files: 3 }), '✖ 5 problems (0 errors, 2 warnings, 2 info, 1 hint) in 3 files');
  assert.equal(format('cli.summary.problems', { problems: 5, errors: 0, warnings: 2, infos: 2, hints: 1, files: 3 }, 'zh-cn'), '✖ 3 个文件中有 5 个问题（0 个错误，2 个警告，2 条信息，1 条提示）');
  assert.equal(fill('{{extracted_{name}}} and {x, plural, other {}', { name: 'id' }), '{{extracted_id}} and {x, plural, other {}', 'braces that are not ours stay text');
  assert.equal(format('no.such.id'), 'no.such.id', 'an unknown id shows itself');
});

test('select forms: a translation words an argument that holds a machine value', () => {
  const t = '需要升级{bump, select, major {主版本号} minor {次版本号} other {{bump}}}（{n, plural, other {# 处{kind, select, risk-increasing {风险增加} other {其他}}}}）';
  assert.equal(fill(t, { bump: 'major', n: 3, kind: 'risk-increasing' }, 'zh-cn'), '需要升级主版本号（3 处风险增加）');
  assert.equal(fill(t, { bump: 'unknown', n: 1, kind: 'neutral' }, 'zh-cn'), '需要升级unknown（1 处其他）', 'other, with the value itself');
  assert.equal(fill(t, {}, 'zh-cn'), '需要升级{bump}（# 处其他）', 'a missing argument: other');
  assert.deepEqual(placeholders(t).sort(), ['bump', 'kind', 'n']);
  assert.equal(fill('{x, select, a {A}} {x, select}', { x: 'a' }), '{x, select, a {A}} {x, select}', 'a select without other is text');
  // The version advice's arguments are the same in both languages; each words them itself.
  const args = { required: 'major', declared: 'none', before: 'none', after: '1.0.0', ref: 'HEAD' };
  assert.equal(format('diff.diagnostic.bump', args), 'These changes since HEAD need a major version bump; the version went from none to 1.0.0 (none).');
  assert.equal(format('diff.diagnostic.bump', args, 'zh-cn'), '自 HEAD 以来的这些变更需要升级主版本号；版本从 未声明 变为 1.0.0（未升级）。');
});

test('display width: Chinese characters take two columns; columns align and text wraps by it', () => {
  assert.equal(displayWidth('规则'), 4);
  assert.equal(displayWidth('a规则b'), 6);
  assert.equal(padEndDisplay('错误', 6), '错误  ');
  assert.equal(alignColumns([['a', '错误', 'x'], ['bbb', 'warning', 'y']]), 'a    错误     x\nbbb  warning  y');
  assert.equal(wrapDisplay('检查契约文件。目录按配置搜索', 10), '检查契约文\n件。目录按\n配置搜索');
  assert.equal(wrapDisplay('（默认：当前目录）', 8), '（默认：\n当前目\n录）');
  assert.equal(wrapDisplay('use en or zh-cn here', 10), 'use en or\nzh-cn here');
});

test('display width: text of one-column characters is measured by its length, as string-width measures it (property)', () => {
  // displayWidth skips string-width for such text (so that English output never loads it); mixed
  // with marks, joiners, emoji and CJK it must still agree.
  const char = fc.oneof(
    fc.integer({ min: 0x20, max: 0x2ff }),
    fc.integer({ min: 0x2000, max: 0x21ff }),
    fc.constantFrom(0x301, 0x200d, 0xfe0f, 0x1f600, 0x4e00, 0xad, 0x1b, 0x9),
  );
  fc.assert(
    fc.property(fc.array(char.map((c) => String.fromCodePoint(c)), { maxLength: 12 }).map((a) => a.join('')), (s) => {
      assert.equal(displayWidth(s), stringWidth(s), JSON.stringify(s));
    }),
    { numRuns: 2000 },
  );
});

test('wrapping keeps every character and fits the width (property)', () => {
  const piece = fc.constantFrom('规则', '检查', '，', '。', '（', '）', 'contract', 'a', ' ', '  ', '契约文件', 'x-y');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }).map((a) => a.join('')), fc.integer({ min: 6, max: 60 }), (s, width) => {
      const lines = wrapDisplay(s, width).split('\n');
      assert.equal(lines.join('').replace(/\s/g, ''), s.replace(/\s/g, ''));
      for (const l of lines) {
        // A line over the width is a single unbreakable token.
        if (displayWidth(l) > width) assert.doesNotMatch(l.trim(), /\s|\p{Script=Han}.*\p{Script=Han}/u, `line ${JSON.stringify(l)} of ${JSON.stringify(s)}`);
      }
    }),
  );
});

test('problem messages are plain text: no raw Markdown emphasis in the Problems panel, in either language', () => {
  const found: string[] = [];
  for (const r of RULES) {
    for (const variant of Object.keys(r.messages)) {
      const id = ruleMessageId(r.code, variant === 'default' ? undefined : variant);
      for (const lang of ['en', 'zh-cn']) if (format(id, {}, lang).includes('**')) found.push(`${lang} ${id}`);
    }
  }
  assert.deepEqual(found, []);
});

test('no message ends a sentence twice (".." or "。。"), in either language, when an argument is itself a sentence', () => {
  // An argument that is a whole message (a provider's error, a list of problems) ends with its own stop.
  const sentence = { en: 'The endpoint refused it.', 'zh-cn': '端点拒绝了。' } as const;
  // Two full stops in a row; an ellipsis and a relative path (`../rules.md`) are not.
  const doubled = /(?<!\.)\.\.(?![./])|[。.]。|。\./;
  const bad: string[] = [];
  for (const [id] of englishMessages()) {
    for (const lang of ['en', 'zh-cn'] as const) {
      const t = template(id, lang)!;
      if (doubled.test(t)) bad.push(`${lang} ${id}: the template itself: ${t}`);
      const args = Object.fromEntries(placeholders(t).map((n) => [n, sentence[lang]]));
      const text = format(id, args, lang);
      if (doubled.test(text)) bad.push(`${lang} ${id}: ${text}`);
    }
  }
  assert.deepEqual(bad, []);
  // The reported ones: the provider's settings and errors, as the user reads them.
  assert.equal(format('model.settings.invalid', { problems: format('model.option.invalid', { option: 'timeoutMs', expected: '> 0', value: '-1' }) }), 'The dry-run model settings are not valid: The model option timeoutMs must be > 0; got -1.');
  // Only a stop that would repeat one is left out; an ellipsis or an extension after an argument stays.
  assert.equal(fill('{a}.', { a: '2' }), '2.');
  assert.equal(fill('{a}...', { a: 'wait' }), 'wait...');
  assert.equal(fill('{a}.json', { a: 'v1.' }), 'v1..json');
});
