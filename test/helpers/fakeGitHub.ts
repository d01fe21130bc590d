/**
 * A GitHub REST API for one pull request's comments (list, create, update) on 127.0.0.1, for the
 * Action's tests (docs/ci.md): the Action reaches it through `GITHUB_API_URL`, as on GitHub
 * Enterprise. Requests without the token are refused as GitHub refuses them.
 */
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN = 'test-token';
/** The repository and pull request the fake serves. */
export const REPOSITORY = 'acme/agents';
export const PULL = 7;

export interface Comment {
  id: number;
  body: string;
}

export interface FakeGitHub {
  readonly server: Server;
  readonly comments: Comment[];
  readonly calls: string[];
  /** Starts listening on a free port of 127.0.0.1. */
  listen(): Promise<void>;
  url(): string;
  /** The environment GitHub gives the Action on pull request #7 of acme/agents whose base commit is `base`, checked out in `dir`. */
  env(dir: string, base: string, inputs?: Readonly<Record<string, string>>): Record<string, string>;
}

export function fakeGitHub(): FakeGitHub {
  const comments: Comment[] = [];
  const calls: string[] = [];
  let next = 1000;
  const prefix = `/repos/${REPOSITORY}/issues`;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      calls.push(`${req.method} ${url.pathname}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `token ${TOKEN}`) return send(401, { message: 'Bad credentials' });
      if (req.method === 'GET' && url.pathname === `${prefix}/${PULL}/comments`) return send(200, comments);
      if (req.method === 'POST' && url.pathname === `${prefix}/${PULL}/comments`) {
        const c = { id: next++, body: (JSON.parse(raw) as { body: string }).body };
        comments.push(c);
        return send(201, c);
      }
      const m = new RegExp(`^${prefix}/comments/(\\d+)$`).exec(url.pathname);
      const c = m ? comments.find((x) => x.id === Number(m[1])) : undefined;
      if (req.method === 'PATCH' && c) {
        c.body = (JSON.parse(raw) as { body: string }).body;
        return send(200, c);
      }
      send(404, { message: 'Not Found' });
    });
  });
  const url = () => `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    server,
    comments,
    calls,
    listen: () => new Promise<void>((done) => server.listen(0, '127.0.0.1', done)),
    url,
    env(dir, base, inputs = {}) {
      const event = join(dir, '..', `${dir.split('/').pop()}-event.json`);
      writeFileSync(event, JSON.stringify({ pull_request: { number: PULL, base: { sha: base } } }));
      const env: Record<string, string> = { GITHUB_WORKSPACE: dir, GITHUB_EVENT_PATH: event, GITHUB_REPOSITORY: REPOSITORY, GITHUB_API_URL: url(), 'INPUT_GITHUB-TOKEN': TOKEN };
      for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
      return env;
    },
  };
}
