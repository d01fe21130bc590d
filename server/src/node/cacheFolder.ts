/**
 * The folder of what the CLI keeps between runs (docs/performance.md, "Start-up"): the ReDoS
 * verdicts and the contract summaries. bin/agents-md.cjs follows the same rule for its compiled
 * code (it runs before any bundle is loaded, so it cannot import this).
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * `$AGENTS_MD_CACHE_DIR`, else `$XDG_CACHE_HOME/agents-md` (an absolute path; a relative one is
 * ignored, as the XDG specification says), else `~/.cache/agents-md`. `AGENTS_MD_CACHE_DIR=`
 * (empty) keeps nothing: undefined.
 */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env['AGENTS_MD_CACHE_DIR'];
  if (explicit !== undefined) return explicit === '' ? undefined : explicit;
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'agents-md');
}
