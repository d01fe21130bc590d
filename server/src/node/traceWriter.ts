/**
 * The append-only JSONL trace file of a dry run (JSONL is append-only by
 * nature; docs/dry-run.md "The trace"). The file is opened with O_APPEND and never rewritten; each event is
 * one complete line handed to the kernel in one `write` call (looped only if the kernel accepts
 * part of it), so a process killed at any moment leaves every line it had finished intact, and
 * at most one torn last line, which `agents-md trace verify` detects.
 *
 * fsync policy: the data is flushed to the disk (`fdatasync`) after every `human_input` and
 * `task_end` event and on close. A killed process loses nothing it wrote (the kernel has it); a
 * power failure may lose the events since the last flush, which `trace verify` then reports as
 * an incomplete run.
 *
 * A write that fails (a full disk) takes back the part of its line the kernel accepted, so the file
 * still ends with a complete line, and is reported as `file.write.failed` (exit 2 in the CLI); a
 * trace that holds nothing when closed is removed rather than left empty.
 */
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { eventLine, runMessage, type TraceEvent } from '../service/index.ts';
import { TraceSigner, traceKey } from './traceSignature.ts';
import { InputError } from './inputError.ts';

/** Event types after which the file is flushed to the disk. */
const FLUSH_AFTER = new Set<TraceEvent['event_type']>(['human_input', 'task_end']);

/** Writes a trace file. Methods throw on I/O errors (disk full): the run ends with that error. */
export class TraceWriter {
  private fd: number | undefined;
  /** Signs what is written when `AGENTS_MD_TRACE_KEY` is set (traceSignature.ts). */
  private readonly signer: TraceSigner | undefined;

  /** Opens (creating it and its folder) `path` for appending; `display` names it in messages. */
  constructor(
    readonly path: string,
    private readonly display: string = path,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a', 0o644);
    const key = traceKey();
    this.signer = key ? new TraceSigner(path, key) : undefined;
  }

  /** Appends raw complete lines (a fork copies the original events up to the fork point). */
  appendLines(text: string): void {
    if (this.fd === undefined) throw new Error(runMessage('host.writer-closed', { file: this.path }));
    const bytes = Buffer.from(text, 'utf8');
    const size = fstatSync(this.fd).size;
    try {
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (e) {
      ftruncateSync(this.fd, size);
      throw new InputError('file.write.failed', { file: this.display, error: (e as NodeJS.ErrnoException).code ?? String(e) });
    }
    this.signer?.update(bytes);
  }

  /** Appends one event as one line. */
  write(event: TraceEvent): void {
    this.appendLines(eventLine(event));
    if (FLUSH_AFTER.has(event.event_type)) fdatasyncSync(this.fd!);
  }

  /** Flushes and closes the file. Safe to call twice. */
  close(): void {
    if (this.fd === undefined) return;
    let empty = false;
    try {
      empty = fstatSync(this.fd).size === 0;
      fdatasyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
    if (empty) return unlinkSync(this.path);
    this.signer?.finish();
  }
}
