import type { Root } from 'mdast';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import { parseWork } from './work.ts';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).freeze();

/**
 * Parses Markdown (CommonMark + GFM + YAML front matter) into an mdast tree whose node
 * positions carry UTF-16 `offset`s into `text`. remark can overflow its stack on pathological
 * nesting: callers guard (parse/buildSection.ts limits nesting and line length, and catches).
 */
export function parseMarkdown(text: string): Root {
  parseWork.markdownCalls++;
  parseWork.markdownChars += text.length;
  return processor.parse(text) as Root;
}
