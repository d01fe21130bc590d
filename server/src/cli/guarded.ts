/** The one way a command reports input it cannot use: an `InputError` is printed in `lang` and the exit code is 2. */
import type { Lang } from '../service/index.ts';
import { InputError } from '../node/inputError.ts';
import { EXIT } from './exitCodes.ts';
import { errorLine } from './terminal.ts';

/** Wraps a command's action: an `InputError` it throws is printed and sets `EXIT.USAGE`; any other error propagates. */
export function guarded<A extends unknown[]>(setExitCode: (code: number) => void, lang: Lang, f: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await f(...args);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      errorLine(e.text(lang));
      setExitCode(EXIT.USAGE);
    }
  };
}
