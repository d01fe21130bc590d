/**
 * Why a file could not be read, as a phrase for the `{error}` / `{reason}` of "cannot be read (…)"
 * messages, from the error code a host reports (Node's `ENOENT`, `EISDIR`…, and node/paths.ts's
 * own `ENOTREG`, `EFBIG`, `EOUTSIDE`): users read a sentence, not a code (docs/robustness.md).
 */
import { format } from './format.ts';
import { registerMessages } from './registry.ts';

export const FILE_ERROR_MESSAGES = registerMessages('files', {
  'file.error.ENOTREG': 'not a regular file',
  'file.error.EISDIR': 'it is a directory',
  'file.error.ENOTDIR': 'a part of the path is not a directory',
  'file.error.ENOENT': 'no such file or directory',
  'file.error.EACCES': 'permission denied',
  'file.error.EPERM': 'permission denied',
  'file.error.EFBIG': 'too large',
  'file.error.EOUTSIDE': 'a link that leads outside the workspace',
  'file.error.ELOOP': 'too many levels of symbolic links',
  'file.error.EMFILE': 'too many open files',
  'file.error.EIO': 'input/output error',
  'file.error.ENOSPC': 'no space left on the device',
  'file.error.EDQUOT': 'disk quota exceeded',
  'file.error.EROFS': 'read-only file system',
  'file.error.ECHANGED': 'the file changed since it was read; nothing was written, run the command again',
  'file.write.failed': 'Cannot write {file}: {error}',
});

/** The phrase for an error code in `lang`; anything else (a message, an unknown code) as given. */
export function fileErrorReason(code: string, lang = 'en'): string {
  const id = `file.error.${code}`;
  return id in FILE_ERROR_MESSAGES ? format(id, {}, lang) : code;
}
