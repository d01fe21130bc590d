/**
 * Reads a file as it is at a git revision or in git's index, through the real `git`
 * (docs/semantic-diff.md "Inputs"): `git cat-file blob <commit>:./<file>` or `:./<file>`, run in
 * the file's folder, so that the path is resolved against the repository the file is in. Always
 * `execFile` with an argument array (no shell); the ref is resolved with `rev-parse --verify
 * --end-of-options`, so a ref that looks like an option is just an unknown ref.
 */
import { execFile } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';
import { diffMessage, type DiffMessageId } from '../service/host.ts';

/** Where to read the older version from: a commit-ish (`HEAD`, `main`, `a1b2c3d`), or the index. */
export type GitSource = { readonly ref: string } | 'index';

/** A failure to read from git, with a message (`git.unknownRef`, …) naming the file and ref. */
export class GitError extends Error {
  constructor(
    readonly messageId: DiffMessageId,
    readonly args: Readonly<Record<string, string>>,
  ) {
    super(diffMessage(messageId, args));
    this.name = 'GitError';
  }
}

interface GitResult {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Largest file read from git (bytes); larger contracts are refused by the CLI before this anyway. */
const MAX_BYTES = 64 * 1024 * 1024;

function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((done, fail) => {
    execFile('git', ['-C', cwd, ...args], { encoding: 'buffer', maxBuffer: MAX_BYTES, windowsHide: true }, (error, stdout, stderr) => {
      // A number is git's exit status; a string is a failure to run it (ENOENT: not installed).
      const code: unknown = (error as { code?: unknown } | null)?.code;
      if (code === 'ENOENT') return fail(new GitError('git.notInstalled', {}));
      if (typeof code === 'string') return fail(new GitError('git.failed', { file: cwd, reason: error!.message }));
      done({ code: error ? (typeof code === 'number' ? code : 1) : 0, stdout, stderr: stderr.toString('utf8').trim() });
    });
  });
}

/** A short label of a source for messages: the ref, or `the index`. */
export function sourceLabel(source: GitSource): string {
  return source === 'index' ? 'index' : source.ref;
}

/**
 * The bytes of `file` (a path, relative to the working directory or absolute) at `source`.
 * Throws a `GitError`: git missing, not in a repository, unknown ref, file not in that revision
 * or not in the index, or any other git failure (with git's own message).
 */
export async function readAtRevision(file: string, source: GitSource): Promise<Uint8Array> {
  const path = resolve(file);
  const cwd = dirname(path);
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) throw new GitError('git.notRepository', { file });
  let spec: string;
  if (source === 'index') {
    spec = `:./${basename(path)}`;
  } else {
    const commit = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${source.ref}^{commit}`]);
    if (commit.code !== 0) throw new GitError('git.unknownRef', { ref: source.ref, file });
    spec = `${commit.stdout.toString('utf8').trim()}:./${basename(path)}`;
  }
  const blob = await git(cwd, ['cat-file', 'blob', spec]);
  if (blob.code === 0) return new Uint8Array(blob.stdout);
  const exists = await git(cwd, ['cat-file', '-e', spec]);
  if (exists.code !== 0) throw source === 'index' ? new GitError('git.notInIndex', { file }) : new GitError('git.notInRef', { file, ref: source.ref });
  throw new GitError('git.failed', { file, reason: blob.stderr });
}
