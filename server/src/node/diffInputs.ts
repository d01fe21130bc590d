/**
 * Reads the versions the semantic diff compares (docs/semantic-diff.md §2), for the CLI, the
 * language server and the GitHub Action alike: a file on disk (a regular file of at most
 * `DEFAULT_MAX_FILE_BYTES`), or a file's older version from git (a ref or the index). Bytes are
 * decoded and parsed like `lint` does; a version that cannot be compared (unreadable, binary, too
 * large, not in git) is an `InputError` (node/inputError.ts) with a diff catalogue message. Also the diff policy that
 * applies to a file (its configuration's `diff` setting).
 */
import { dirname, resolve } from 'node:path';
import { parseContract, DEFAULT_MAX_FILE_BYTES, Workspace, type DiffPolicy, type ParsedContract } from '../service/index.ts';
import { decodeText, DIFF_PREFIX, diffPolicyOf, type DiffMessageId } from '../service/host.ts';
import { GitError, readAtRevision, sourceLabel, type GitSource } from './gitRevision.ts';
import { createNodeFileSystem, fileUri } from './nodeFileSystem.ts';
import { readRegularFile } from './paths.ts';
import { InputError } from './inputError.ts';

/** A version that cannot be compared: an `InputError` with a diff catalogue message. */
function inputError(id: DiffMessageId, args: Readonly<Record<string, string | number>>): InputError {
  return new InputError(`${DIFF_PREFIX}${id}`, args);
}

/** One compared version as reports name it: the file and, when read from git, the ref or `index`. */
export interface DiffVersion {
  readonly file: string;
  readonly ref?: string;
}

/** How a version is named in locations and messages: `AGENTS.md`, `HEAD:AGENTS.md`, `index:AGENTS.md`. */
export function versionLabel(v: DiffVersion): string {
  return v.ref === undefined ? v.file : `${v.ref}:${v.file}`;
}

/** Where a version comes from: a file on disk, or `path` at a git source. */
export interface VersionSource {
  /** The path (relative to the working directory, or absolute). */
  readonly path: string;
  /** The file's name in reports. */
  readonly file: string;
  readonly git?: GitSource;
}

/** A version read, decoded and parsed. */
export interface LoadedVersion {
  readonly version: DiffVersion;
  readonly text: string;
  readonly model: ParsedContract;
}

async function bytesOf(source: VersionSource): Promise<Uint8Array> {
  if (source.git) {
    try {
      return await readAtRevision(source.path, source.git);
    } catch (e) {
      if (e instanceof GitError) throw inputError(e.messageId, e.args);
      throw e;
    }
  }
  try {
    return readRegularFile(source.path, DEFAULT_MAX_FILE_BYTES);
  } catch (e) {
    throw inputError('input.unreadable', { file: source.file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
}

/** Reads, checks (size, binary), decodes and parses one version. */
export async function loadVersion(source: VersionSource): Promise<LoadedVersion> {
  const bytes = await bytesOf(source);
  const version: DiffVersion = source.git === undefined ? { file: source.file } : { file: source.file, ref: sourceLabel(source.git) };
  if (bytes.length > DEFAULT_MAX_FILE_BYTES) throw inputError('input.tooLarge', { file: versionLabel(version), limit: DEFAULT_MAX_FILE_BYTES });
  const decoded = decodeText(bytes);
  if (decoded.binary) throw inputError('input.binary', { file: versionLabel(version) });
  return { version, text: decoded.text, model: parseContract(decoded.text) };
}

/**
 * The diff policy for a contract: the `diff` setting of the configuration file nearest to it, up
 * to `root` (default: the contract's folder only). Problems in the file leave the default policy.
 */
export async function diffPolicyFor(path: string, root?: string): Promise<DiffPolicy> {
  const file = resolve(path);
  const workspace = new Workspace({ fs: createNodeFileSystem(), roots: [fileUri(root ? resolve(root) : dirname(file))] });
  const { config } = await workspace.configFor(fileUri(file));
  return diffPolicyOf(config.diff);
}
