/**
 * A GitHub REST API for one pull request's comments (list, create, update) on 127.0.0.1, for the
 * Action's tests (docs/ci.md): the Action reaches it through `GITHUB_API_URL`, as on GitHub
 * Enterprise. Requests without the token are refused as GitHub refuses them. Comments carry their
 * author (`user.login`); the token's own identity (`VIEWER`) is what GraphQL `viewer` answers; a
 * body over GitHub's 65,536 characters is refused with 422, as GitHub does.
 */
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN = 'test-token';
/** The repository and pull request the fake serves. */
export const REPOSITORY = 'acme/agents';
export const PULL = 7;
/** The identity of `TOKEN` (a workflow's GITHUB_TOKEN comments as this bot). */
export const VIEWER = 'github-actions[bot]';
/** GitHub's longest comment body, in characters. */
export const MAX_BODY = 65_536;

export interface Comment {
  id: number;
  body: string;
  user: { login: string };
}

export interface FakeGitHub {
  readonly server: Server;
  readonly comments: Comment[];
  readonly calls: string[];
  /** When set, every request is answered with this status and body (an API error). */
  failWith?: { status: number; body: unknown } | undefined;
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
      if (fake.failWith) return send(fake.failWith.status, fake.failWith.body);
      if (req.method === 'POST' && url.pathname === '/graphql') return send(200, { data: { viewer: { login: VIEWER } } });
      if (req.method === 'GET' && url.pathname === `${prefix}/${PULL}/comments`) return send(200, comments);
      const body = req.method === 'GET' ? '' : (JSON.parse(raw) as { body: string }).body;
      if ([...body].length > MAX_BODY) return send(422, { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] });
      if (req.method === 'POST' && url.pathname === `${prefix}/${PULL}/comments`) {
        const c = { id: next++, body, user: { login: VIEWER } };
        comments.push(c);
        return send(201, c);
      }
      const m = new RegExp(`^${prefix}/comments/(\\d+)$`).exec(url.pathname);
      const c = m ? comments.find((x) => x.id === Number(m[1])) : undefined;
      if (req.method === 'PATCH' && c) {
        c.body = body;
        return send(200, c);
      }
      send(404, { message: 'Not Found' });
    });
  });
  const url = () => `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const fake: FakeGitHub = {
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
  return fake;
}
