/** Runs git in `cwd` (the Action's checkout); rejects with git's own message. */
import { execFile } from 'node:child_process';

export function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((done, fail) => {
    execFile('git', ['-C', cwd, ...args], { maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => (error ? fail(new Error(`git ${args.join(' ')}: ${stderr || error.message}`)) : done(stdout)));
  });
}
