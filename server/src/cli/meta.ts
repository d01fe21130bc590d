/** The CLI's identity, shared by `--version`, the SARIF driver and rule help links. */
import pkg from '../../../package.json' with { type: 'json' };

export const TOOL_NAME = 'agents-md';
export const TOOL_VERSION: string = pkg.version;

/**
 * The project's public repository. package.json has no `repository` field yet; when it gets one,
 * keep this in step (SARIF `informationUri` and every rule's `helpUri` are built from it).
 */
export const REPOSITORY_URL = 'https://github.com/agents-md/agents-md-contracts';

/** The documentation page of a rule: its heading in docs/rules.md, or in docs/zh-cn/rules.md for Chinese. */
export function ruleHelpUri(code: string, lang = 'en'): string {
  return `${REPOSITORY_URL}/blob/main/docs/${lang === 'zh-cn' ? 'zh-cn/' : ''}rules.md#${code}`;
}
