/**
 * The harness of the multi-process tests (settings-invalidation, photos-processes): real app server
 * processes (tests/setup/site-process.ts) on one database, each speaking JSON lines, and a plain GET
 * against one of them as a visitor of site 1.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';

export interface Message {
  type: string;
  [key: string]: unknown;
}

/** A server process and the JSON lines it has said; `next` awaits the first line matching, from `from` on. */
export class SiteProcess {
  readonly said: Message[] = [];
  private readonly waiters = new Set<() => void>();
  url = '';
  stderr = '';

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      this.said.push(JSON.parse(line) as Message);
      for (const wake of this.waiters) wake();
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  next(match: (m: Message) => boolean, from = 0, timeoutMs = 60_000): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.said.slice(from).find(match);
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms; said ${JSON.stringify(this.said)}; stderr ${this.stderr}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
      this.child.once('exit', (code) => reject(new Error(`process exited (${code}): ${this.stderr}`)));
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

/** Starts one app process on `databaseUrl` (the demo seeded with 2 members per site when empty). */
export function startSiteProcess(databaseUrl: string, dataDir: string, env: Record<string, string> = {}): SiteProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/setup/site-process.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SEED_PROFILES_PER_SITE: '2', LOG_LEVEL: 'silent', ...env },
  });
  return new SiteProcess(child);
}

/** GET `path` from the process at `url` as a visitor of site 1 who accepted the entry warning: the body of a 200. */
export function getBody(url: string, path: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `localhost:${port}`, cookie: 'lang=en; entry_ok=1' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode}: ${body.slice(0, 200)}`))));
    });
    req.on('error', reject);
    req.end();
  });
}
