/**
 * Where dry runs are written (docs/dry-run.md "The trace"): `<root>/.agents-md/runs/`, one
 * folder per run (`<UTC stamp>-<name>/`), git-ignored. Names coming from snapshots (query ids,
 * file names) are reduced to a safe slug, and every path is checked to stay inside the run's
 * folder: a run writes nothing anywhere else.
 */
import { existsSync, mkdirSync, readdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { runMessage } from '../service/index.ts';
import { MAX_READ_BYTES } from './nodeFileSystem.ts';
import { readRegularFile } from './paths.ts';
import { writeFileAtomic } from './atomicWrite.ts';
import { InputError } from './inputError.ts';

/** The runs folder, relative to the workspace root. */
export const RUNS_DIR = join('.agents-md', 'runs');

/** A file-name-safe slug: letters, digits, `_`, `.` and `-` only, no leading dot, at most 80 characters. */
export function slug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[.-]+/, '').replace(/-+$/, '').slice(0, 80);
  return s || 'run';
}

/** A UTC timestamp usable in a file name, sorting in time order: `20240612T080000123Z`. */
export function stamp(date: Date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/** One run's folder. */
export class RunFolder {
  /** Absolute path of the folder. */
  readonly dir: string;
  /** The run id: the folder's name. */
  readonly id: string;

  private constructor(dir: string, id: string) {
    this.dir = dir;
    this.id = id;
  }

  /** Creates a new, empty run folder `<root>/.agents-md/runs/<stamp>-<slug(name)>` (suffixed `-2`, `-3`… if taken). */
  static create(root: string, name: string, date: Date = new Date()): RunFolder {
    const runs = resolve(root, RUNS_DIR);
    mkdirSync(runs, { recursive: true });
    // Runs are local output: Source Control must not list them (docs/dry-run.md, "Runs").
    const ignore = resolve(root, '.agents-md', '.gitignore');
    try {
      writeFileSync(ignore, '*\n', { flag: 'wx' });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        // Created but not written (a full disk): an empty .gitignore would ignore nothing.
        if (existsSync(ignore)) unlinkSync(ignore);
        throw new InputError('file.write.failed', { file: relative(root, ignore).split(sep).join('/'), error: code ?? String(e) });
      }
    }
    const base = `${stamp(date)}-${slug(name)}`;
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}-${n}`;
      const dir = join(runs, id);
      try {
        mkdirSync(dir);
        return new RunFolder(dir, id);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 1000) throw e;
      }
    }
  }

  /** The absolute path of `name` inside the folder; throws if it would leave it. */
  file(name: string): string {
    const p = resolve(this.dir, name);
    const rel = relative(this.dir, p);
    if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..') || resolve(this.dir, rel) !== p) throw new Error(runMessage('host.outside-run-folder', { name }));
    return p;
  }

  /** Writes a JSON file inside the folder, all or nothing (atomicWrite.ts). */
  writeJson(name: string, value: unknown): string {
    const p = this.file(name);
    writeFileAtomic(p, `${JSON.stringify(value, null, 2)}\n`, {}, [RUNS_DIR, this.id, name].join('/'));
    return p;
  }

  /** Removes the folder when nothing was written to it (a run that failed to write its trace). */
  removeIfEmpty(): void {
    try {
      if (readdirSync(this.dir).length === 0) rmdirSync(this.dir);
    } catch {
      // Still in use or already gone: nothing to tidy.
    }
  }
}

/** The names of the run folders under `<root>/.agents-md/runs` that hold a file `name`, sorted (oldest first). */
export function runsWith(root: string, name: string): string[] {
  const runs = resolve(root, RUNS_DIR);
  try {
    return readdirSync(runs)
      .filter((n) => existsSync(join(runs, n, name)))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Reads a JSON file of a run folder, or undefined. A runs folder can be committed: the file is
 * read by the bounded reader (a link to `/dev/zero` or out of the workspace is no file).
 */
export function readRunJson(root: string, runId: string, name: string): unknown {
  try {
    const path = join(resolve(root, RUNS_DIR), slug(runId), slug(name));
    return JSON.parse(readRegularFile(path, { maxBytes: MAX_READ_BYTES, roots: [resolve(root)] }).toString('utf8'));
  } catch {
    return undefined;
  }
}
