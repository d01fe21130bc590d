import { SECTIONS } from '../server/src/service/index.ts';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A title as a regex tolerant of the separators the parser accepts (`_`, space, `-`, `&`, `and`). */
function titlePattern(title: string): string {
  const words = title.split(/[\s_\-&/]+|\band\b/i).filter(Boolean).map(escape);
  return words.join('(?:[\\s_\\-&/]+(?:and[\\s_]+)?)');
}

/**
 * The TextMate injection grammar for contracts inside Markdown, generated from the section
 * catalogue so that the titles it highlights are exactly the ones the parser recognises.
 * Scopes: recognised H2 titles, ❌/✅ boundary markers and `agents-md-*` directive comments.
 */
export function renderInjectionGrammar(): object {
  const titles = [...new Set(SECTIONS.flatMap((s) => [s.title, ...s.aliases]))];
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    scopeName: 'agents-md.injection',
    injectionSelector: 'L:text.html.markdown -markup.fenced_code -markup.inline.raw -comment',
    patterns: [{ include: '#section-title' }, { include: '#boundary' }, { include: '#directive' }],
    repository: {
      'section-title': {
        match: `(?i)^(\\#\\#)[ \\t]+(?:\\d+\\.[ \\t]*)?\`?(${titles.sort((a, b) => b.length - a.length).map(titlePattern).join('|')})\`?(?=[ \\t]*(?:$|[-—:(（]))`,
        captures: { '1': { name: 'punctuation.definition.heading.markdown' }, '2': { name: 'entity.name.section.contract.agents-md' } },
      },
      boundary: {
        patterns: [
          { match: '❌', name: 'keyword.control.boundary.never.agents-md' },
          { match: '✅', name: 'keyword.control.boundary.may.agents-md' },
        ],
      },
      directive: {
        match: '(<!--)\\s*(agents-md-(?:disable-next-line|disable-line|disable-file|enable-file|disable|enable|configure-file))\\b([^>]*?)(-->)',
        captures: {
          '1': { name: 'punctuation.definition.comment.begin.agents-md' },
          '2': { name: 'keyword.other.directive.agents-md' },
          '3': { name: 'constant.other.rule-code.agents-md' },
          '4': { name: 'punctuation.definition.comment.end.agents-md' },
        },
      },
    },
  };
}

/** Templates (`{{extracted_device_id}}`, `{{name[:3]}}`) everywhere in Markdown, fenced YAML included. */
export function renderTemplateGrammar(): object {
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    scopeName: 'agents-md.templates.injection',
    injectionSelector: 'L:text.html.markdown',
    patterns: [
      {
        match: '(\\{\\{)\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(\\[\\s*-?\\d*\\s*:\\s*-?\\d*\\s*\\])?\\s*(\\}\\})',
        captures: {
          '1': { name: 'punctuation.definition.template.begin.agents-md' },
          '2': { name: 'variable.other.template.agents-md' },
          '3': { name: 'meta.slice.template.agents-md' },
          '4': { name: 'punctuation.definition.template.end.agents-md' },
        },
      },
    ],
  };
}
