/**
 * The built app (dist/server/main.mjs, as `npm start` runs it) as a child process on a database of the
 * test's, and plain HTTP requests to it as site 1 (localhost), each on its own connection: for the tests
 * that need real server processes (chat-faults, chat-two-way). Run `npm run build` after changing src/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { waitForLine } from '../../bench/process';

const root = join(import.meta.dirname, '..', '..');

export interface BuiltServer {
  child: ChildProcess;
  port: number;
  /** Resolves with the signal or exit code when the process ends. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Starts one server process (one worker) on `databaseUrl`; the demo is seeded when the database is empty. */
export async function startBuiltServer(databaseUrl: string, env: Record<string, string> = {}): Promise<BuiltServer> {
  const child = spawn(process.execPath, [join(root, 'dist', 'server', 'main.mjs')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, WEB_CONCURRENCY: '1', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED_PROFILES_PER_SITE: '4', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const address = await waitForLine(child, /serving on (http:\/\/[^\s"]+)/);
  child.stdout?.resume();
  return { child, port: Number(new URL(address).port), exited };
}

/** Ends the process with SIGTERM (it drains) and waits for it; nothing when it has ended already. */
export async function stopBuiltServer(server: BuiltServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

export interface Answer {
  status: number;
  json: any;
  /** The cookies the answer set, by name. */
  cookies: Record<string, string>;
  location?: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  /** A JSON body, sent as an XHR (the API's clients). */
  json?: unknown;
  /** A form body (the server-rendered forms, the back office). */
  form?: Record<string, string>;
  /** Cookies besides `lang=en`. */
  cookies?: Record<string, string>;
}

/** One request on its own connection to 127.0.0.1, as site 1 (localhost); rejects when the connection breaks. */
export function call(server: Pick<BuiltServer, 'port'>, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const host = `localhost:${server.port}`;
    const data = options.form ? new URLSearchParams(options.form).toString() : options.json === undefined ? '' : JSON.stringify(options.json);
    const cookie = Object.entries({ lang: 'en', ...options.cookies })
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        agent: false,
        headers: {
          host,
          origin: `http://${host}`,
          cookie,
          'content-length': Buffer.byteLength(data),
          ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            // Not JSON (a page, a redirect): the status says enough.
          }
          const cookies: Record<string, string> = {};
          for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
            const m = /^([^=;\s]+)=([^;]*)/.exec(line);
            if (m) cookies[m[1]!] = m[2]!;
          }
          resolve({ status: res.statusCode ?? 0, json, cookies, headers: res.headers, ...(res.headers.location ? { location: res.headers.location } : {}) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with a binary body or answer, as site 1 (localhost). */
export function raw(
  server: Pick<BuiltServer, 'port'>,
  method: string,
  path: string,
  options: { body?: Buffer; headers?: Record<string, string>; cookies?: Record<string, string> } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const host = `localhost:${server.port}`;
    const cookie = Object.entries({ lang: 'en', ...options.cookies })
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const req = request(
      { host: '127.0.0.1', port: server.port, method, path, agent: false, headers: { host, origin: `http://${host}`, cookie, 'content-length': options.body?.length ?? 0, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body ?? '');
  });
}
