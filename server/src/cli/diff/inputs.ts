/**
 * Reads the two versions `agents-md diff` compares: files from disk, or a file's older version from
 * git (a ref or the index). Bytes are decoded and parsed like `lint` does; a file that cannot be
 * compared (unreadable, binary, too large, not in git) is an `InputError` with a message id.
 */
import { readRegularFile } from '../../node/paths.ts';
import { decodeText, diffMessage, parseContract, DEFAULT_MAX_FILE_BYTES, type DiffMessageId, type ParsedContract } from '../../service/index.ts';
import { GitError, readAtRevision, sourceLabel, type GitSource } from '../../node/gitRevision.ts';
import { versionLabel, type DiffVersion } from './report.ts';

/** A version that cannot be compared; `message` is the message's text. */
export class InputError extends Error {
  constructor(
    readonly messageId: DiffMessageId,
    readonly args: Readonly<Record<string, string | number>>,
  ) {
    super(diffMessage(messageId, args));
    this.name = 'InputError';
  }
}

/** A version read and parsed. */
export interface LoadedVersion {
  readonly version: DiffVersion;
  readonly model: ParsedContract;
}

/** Where a version comes from: a file on disk, or `file` at a git source. */
export interface VersionSource {
  /** The path as given on the command line (relative to the working directory, or absolute). */
  readonly path: string;
  /** The file's name in reports. */
  readonly file: string;
  readonly git?: GitSource;
}

async function bytesOf(source: VersionSource): Promise<Uint8Array> {
  if (source.git) {
    try {
      return await readAtRevision(source.path, source.git);
    } catch (e) {
      if (e instanceof GitError) throw new InputError(e.messageId, e.args);
      throw e;
    }
  }
  try {
    return readRegularFile(source.path, DEFAULT_MAX_FILE_BYTES);
  } catch (e) {
    throw new InputError('input.unreadable', { file: source.file, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
}

/** Reads, decodes and parses one version. */
export async function loadVersion(source: VersionSource): Promise<LoadedVersion> {
  const bytes = await bytesOf(source);
  const version: DiffVersion = source.git === undefined ? { file: source.file } : { file: source.file, ref: sourceLabel(source.git) };
  if (bytes.length > DEFAULT_MAX_FILE_BYTES) throw new InputError('input.tooLarge', { file: versionLabel(version), limit: DEFAULT_MAX_FILE_BYTES });
  const decoded = decodeText(bytes);
  if (decoded.binary) throw new InputError('input.binary', { file: versionLabel(version) });
  return { version, model: parseContract(decoded.text) };
}
