/**
 * SEC-04: a deterministic fuzz of every endpoint and page, against the built server. The targets are
 * read from the files, not kept by hand: the routes of src/pages/** and the paths and methods of
 * openapi/openapi.yaml; the field names from the forms (`name="…"`), the form handlers (`.text('…')`)
 * and the contract's properties and parameters. Every target gets malformed JSON, NUL/CR/LF and other
 * odd characters in fields, the query and the path, wrong types, huge values and wrong methods (TRACE
 * and unknown ones too), as a visitor and as a member. No answer may be a 5xx or a dropped connection.
 * The only randomness is a PRNG with a fixed seed, so a run can be replayed.
 *
 * SEC-19 extends it to what a visitor never gets past: the back office
 * with a session of each staff role (every staff page and form, ids out of int32 and in other notations,
 * known and unknown, bad `next` values for the staff login) and the dev viewers (/dev/mail, /dev/sms),
 * which answer only this machine when no proxy is in between; and to the error pages as addresses.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complaints, conversations, mailOutbox, photos, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { totpCode } from '../../src/server/staff/accounts';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type RequestOptions, type TestServer } from '../setup/server';

const SEED = 0x5ec04;
const root = join(import.meta.dirname, '..', '..');

/** mulberry32: a small seeded PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

function gitFiles(dir: string): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', dir], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
}

const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** A route of src/pages, its file, and the action values its forms name (`value="…"`). */
interface Target {
  path: string;
  methods: string[];
  values: string[];
  /** Field names of the page's own forms (`name="…"` in it, `.text('…')` in its form handler). */
  names: string[];
  /** Query parameters the page reads (`searchParams.get('…')`). */
  queries?: string[];
}

const PARAM_SAMPLES: Record<string, string[]> = { id: ['1', '99999999999999999999', 'abc'], name: ['x.webp', '..%2f..%2fetc%2fpasswd'] };

/** The routes of src/pages/** with their `[param]` placeholders (files and folders starting with `_` are not routes). */
export function pageRoutes(): Target[] {
  const routes: Target[] = [];
  for (const file of gitFiles('src/pages')) {
    const rel = file.slice('src/pages/'.length);
    if (rel.split('/').some((part) => part.startsWith('_')) || !/\.(astro|ts)$/.test(rel) || rel.endsWith('.test.ts')) continue;
    const text = read(file);
    const values = [...text.matchAll(/value="([\w-]+)"/g)].map((m) => m[1]!);
    const formsFile = `src/server/web/${rel
      .replace(/\/index\.astro$|\.astro$/, '')
      .split('/')
      .pop()}.ts`;
    let handler: string;
    try {
      handler = read(formsFile);
    } catch {
      handler = '';
    }
    const names = [...new Set([...`${text}\n${handler}`.matchAll(/name="([a-z_]+)"|\.(?:text|all)\('([a-z_]+)'\)/g)].map((m) => (m[1] ?? m[2])!))];
    const methods = rel.endsWith('.ts') ? [...text.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!) : ['GET', 'POST'];
    const queries = [...new Set([...text.matchAll(/searchParams\.get\('([a-z_]+)'\)/g)].map((m) => m[1]!))];
    const route = '/' + rel.replace(/\.(astro|ts)$/, '').replace(/(^|\/)index$/, '');
    routes.push({ path: route.replace(/\/+$/, '') || '/', methods: methods.length ? methods : ['GET'], values, names, queries });
  }
  return routes;
}

/** `route` with each `[param]` (and `[...rest]`) replaced by each of its samples: every combination. */
export function expandRoute(route: string, samples: (name: string, spread: boolean) => string[]): string[] {
  const variants: string[] = [route];
  for (const [, spread, name] of route.matchAll(/\[(\.\.\.)?(\w+)\]/g)) {
    const next: string[] = [];
    for (const v of variants) for (const s of samples(name!, Boolean(spread))) next.push(v.replace(`[${spread ?? ''}${name}]`, s));
    variants.splice(0, variants.length, ...next);
  }
  return variants.map((path) => path.replace(/\/+$/, '') || '/');
}

/** The page routes with their parameters filled in with a few samples each (the error pages are fuzzed by SEC-19). */
export function pageTargets(): Target[] {
  const targets: Target[] = [];
  for (const route of pageRoutes()) {
    if (route.path === '/404' || route.path === '/500') continue;
    const samples = (name: string, spread: boolean) => (spread ? ['a', 'a/b/c', '%ff'] : (PARAM_SAMPLES[name] ?? ['1', 'x']));
    for (const path of expandRoute(route.path, samples)) targets.push({ ...route, path });
  }
  return targets;
}

/** The property names of `components.schemas.<name>` (one level). */
function schemaProperties(yaml: string, name: string): string[] {
  const start = yaml.indexOf(`\n    ${name}:\n`);
  if (start < 0) return [];
  const rest = yaml.slice(start + name.length + 7);
  const end = rest.search(/\n {4}\w+:\n/);
  const block = end < 0 ? rest : rest.slice(0, end);
  return [...block.matchAll(/^ {8}([a-z_]+):/gm)].map((m) => m[1]!);
}

/** The paths and methods of the API contract. */
export function contractTargets(): Target[] {
  const yaml = read('openapi/openapi.yaml');
  const targets: Target[] = [];
  let current: Target | undefined;
  for (const line of yaml.split('\n')) {
    const path = /^ {2}(\/\S*):\s*$/.exec(line);
    if (path) targets.push((current = { path: path[1]!, methods: [], values: [], names: [] }));
    else if (/^\S/.test(line)) current = undefined;
    const method = /^ {4}(get|post|put|patch|delete):\s*$/.exec(line);
    if (method && current) current.methods.push(method[1]!.toUpperCase());
    // The request's fields: inline properties, and those of the schemas the path refers to.
    if (current) {
      for (const m of line.matchAll(/^\s{14,}([a-z_]+): \{/g)) current.names.push(m[1]!);
      for (const m of line.matchAll(/#\/components\/schemas\/(\w+)/g)) current.names.push(...schemaProperties(yaml, m[1]!));
      for (const m of line.matchAll(/- name: ([a-z_]+)/g)) current.names.push(m[1]!);
    }
  }
  for (const t of targets) t.names = [...new Set(t.names)];
  return targets;
}

/** A value each field would plausibly take (enum values from the contract), so that handlers get past their first checks. */
export function plausibleValues(names: string[]): Record<string, string> {
  const yaml = read('openapi/openapi.yaml');
  const enums = new Map<string, string>();
  for (const m of yaml.matchAll(/([a-z_]+): \{ type: string, enum: \[(\w+)/g)) enums.set(m[1]!, m[2]!);
  const out: Record<string, string> = {};
  for (const name of names) {
    out[name] =
      enums.get(name) ??
      (/email/.test(name)
        ? `fuzz-${name}@example.com`
        : /password/.test(name)
          ? 'demo-password-1'
          : /date|birth/.test(name)
            ? '1990-05-05'
            : /^(next|to|path|route|back)$/.test(name)
              ? '/members'
              : /lang/.test(name)
                ? 'en'
                : /(^|_)(id|step|ms|minutes|count|page)$/.test(name)
                  ? '1'
                  : /^(accept|enabled|invisible|heart|chat|globe|alert)$/.test(name)
                    ? '1'
                    : 'Hello there');
  }
  return out;
}

/** Field and query names from the forms, the handlers and the contract. */
export function fieldNames(): string[] {
  const names = new Set<string>();
  for (const file of [...gitFiles('src/pages'), ...gitFiles('src/components'), ...gitFiles('src/islands'), ...gitFiles('src/server')]) {
    if (file.endsWith('.test.ts')) continue;
    const text = read(file);
    for (const m of text.matchAll(/name="([a-z_]+)"/g)) names.add(m[1]!);
    for (const m of text.matchAll(/\.(?:text|all|get|getAll)\('([a-z_]+)'\)/g)) names.add(m[1]!);
  }
  const yaml = read('openapi/openapi.yaml');
  for (const m of yaml.matchAll(/- name: ([a-z_]+)/g)) names.add(m[1]!);
  for (const block of yaml.matchAll(/properties:\s*\n((?:\s{8,}[a-z_]+:.*\n)+)/g)) for (const m of block[1]!.matchAll(/^\s+([a-z_]+):/gm)) names.add(m[1]!);
  for (const block of yaml.matchAll(/properties: \{([^\n]*)\}/g)) for (const m of block[1]!.matchAll(/([a-z_]+): \{/g)) names.add(m[1]!);
  for (const header of ['accept', 'host', 'origin', 'referer', 'location']) names.delete(header);
  return [...names].sort();
}

const NASTY_STRINGS = [
  '',
  'a',
  'a\u0000b',
  '\u0000',
  'line\r\nSet-Cookie: x=1',
  '\r',
  '\n',
  '/\r\n/evil',
  '/%0d%0a',
  '\u2028\u2029',
  '\ud800',
  '😀'.repeat(50),
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '//evil.example',
  'https://evil.example',
  '9999-99-99',
  '1e309',
  '-1',
  '99999999999999999999',
  'NaN',
  'x'.repeat(5_000),
  'é'.repeat(3_000),
  '\x7f\x1b[31m',
  'a@b',
  'free@demo.test',
  '%00',
  '%ff',
];
/** Half of the nasty values are control characters: the ones that reached PostgreSQL and answered 500. */
const CONTROL_STRINGS = ['a\u0000b', '\u0000', 'x@example.com\u0000', 'line\r\nSet-Cookie: x=1', '/\r\n/evil', '\r', '\n', '\u0000/members'];
const NASTY_JSON_VALUES: unknown[] = [...NASTY_STRINGS, 0, -1, 1e20, 2 ** 53 + 1, 1.5, true, false, null, [], ['a', 'b'], {}, { nested: { deep: 'x\u0000' } }];
const RAW_JSON_BODIES = ['{', '[', 'null', '"text"', '123', '{"a":', '{"a":1,}', '\u0000', '[]', 'true', '['.repeat(20_000) + ']'.repeat(20_000), '{"__proto__":{"x":1}}'];
/** encodeURIComponent, but a lone surrogate goes out as the (invalid) UTF-8 bytes of it. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};
const WRONG_METHODS = ['TRACE', 'PROPFIND', 'FOO', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const QUERY_VALUES = ['%00', '%0d%0a', '%ff%fe', '%E0%A4%A', '%zz', 'x'.repeat(6_000), '..%2f..%2f', '%2F%2Fevil.example', '%C0%AF', '-1', '99999999999999999999', '%E2%80%A8'];

/** One request of a fuzz run. */
interface Job {
  label: string;
  path: string;
  options: RequestOptions;
}

/** What the job generator needs: the PRNG, every field name, a plausible value per name, and where jobs go. */
interface Fuzzer {
  rnd: ReturnType<typeof prng>;
  names: string[];
  plausible: Record<string, string>;
  add(label: string, path: string, options: RequestOptions): void;
}

/** Mostly every known field with a plausible value, then `count` of them (often the page's own) made nasty. */
function nastyFields(f: Fuzzer, target: Target, count: number, sparse = false): Record<string, unknown> {
  const { rnd, names } = f;
  const out: Record<string, unknown> = !sparse && rnd.next() < 0.75 ? { ...f.plausible } : {};
  for (let i = 0; i < count; i++)
    out[target.names.length > 0 && rnd.next() < 0.6 ? rnd.pick(target.names) : rnd.pick(names)] = rnd.next() < 0.5 ? rnd.pick(CONTROL_STRINGS) : rnd.pick(NASTY_JSON_VALUES);
  for (const name of ['action', 'form', 'step']) if (target.values.length > 0 && rnd.next() < 0.7) out[name] = rnd.pick(target.values);
  return out;
}

function urlencoded(f: Fuzzer, record: Record<string, unknown>, odd = 0.2): string {
  return Object.entries(record)
    .map(([k, v]) => `${encodeURIComponent(k)}=${f.rnd.next() < odd ? f.rnd.pick(QUERY_VALUES) : encode(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');
}

const XHR_JSON = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
const FORM_POST = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

/** A multipart body of `record` (what a browser's FormData sends) and its content type. */
async function multipartBody(record: Record<string, unknown>): Promise<{ type: string; body: Buffer }> {
  const multipart = new FormData();
  for (const [k, v] of Object.entries(record)) multipart.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const built = new Request('http://localhost/', { method: 'POST', body: multipart });
  return { type: built.headers.get('content-type')!, body: Buffer.from(await built.arrayBuffer()) };
}

/**
 * The malformed requests for one target: odd queries and path suffixes, bodies of every kind for every
 * method it takes (and POST in any case), each of its own fields with a control character, wrong methods.
 */
async function targetJobs(f: Fuzzer, target: Target): Promise<void> {
  const { rnd, names, plausible, add } = f;
  const path = target.path.split('?')[0]!;
  const fixedQuery = target.path.includes('?') ? target.path.split('?')[1]! + '&' : '';
  // The query and the path.
  for (let i = 0; i < 5; i++) {
    const query = Object.entries(nastyFields(f, target, 1 + Math.floor(rnd.next() * 3), true))
      .map(([k, v]) => `${k}=${rnd.next() < 0.5 ? rnd.pick(QUERY_VALUES) : encode(String(v))}`)
      .join('&');
    add('query', `${path}?${fixedQuery}${query}`, { headers: { accept: rnd.pick(['text/html', 'application/json', '*/*']) } });
  }
  for (const suffix of ['%00', '%0d%0a', '%ff', '/%2e%2e/', ';x=1', '/../../etc/passwd']) add('path', `${path}${suffix}`, { headers: { accept: 'text/html' } });
  // Bodies, for every method the target takes and for POST in any case.
  for (const method of new Set([...target.methods.filter((m) => m !== 'GET'), 'POST'])) {
    const url = `${path}${fixedQuery ? `?${fixedQuery.slice(0, -1)}` : ''}`;
    for (const raw of RAW_JSON_BODIES) add('raw json', url, { method, headers: XHR_JSON, body: raw });
    for (let i = 0; i < 5; i++) add('json fields', url, { method, headers: XHR_JSON, body: JSON.stringify(nastyFields(f, target, 2 + Math.floor(rnd.next() * 6))) });
    add('json wrong type', url, { method, headers: XHR_JSON, body: JSON.stringify(rnd.pick([[nastyFields(f, target, 3)], 'text', 42])) });
    add('json huge', url, { method, headers: XHR_JSON, body: JSON.stringify({ [rnd.pick(names)]: 'x'.repeat(70 * 1024) }) });
    for (let i = 0; i < 5; i++) add('form fields', url, { method, headers: FORM_POST, body: urlencoded(f, nastyFields(f, target, 2 + Math.floor(rnd.next() * 6))) });
    // Each of the page's own fields in turn with a control character, the others plausible.
    for (const name of target.names) {
      for (const value of ['x@example.com\u0000', '/members\r\nX-Evil: 1']) {
        const record: Record<string, unknown> = { ...plausible, ...(target.values.length > 0 ? { action: rnd.pick(target.values), form: rnd.pick(target.values) } : {}), [name]: value };
        const asForm = rnd.next() < 0.5;
        add('one field', url, { method, headers: asForm ? FORM_POST : XHR_JSON, body: asForm ? urlencoded(f, record, 0) : JSON.stringify(record) });
      }
    }
    add('form raw bytes', url, { method, headers: FORM_POST, body: Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x3d, 0xff, 0xfe, 0x00, 0x26, 0x6e, 0x3d, 0xc3]) });
    add('form huge', url, { method, headers: FORM_POST, body: `${rnd.pick(names)}=${'x'.repeat(70 * 1024)}` });
    const multipart = await multipartBody(nastyFields(f, target, 4));
    add('multipart', url, { method, headers: { 'content-type': multipart.type, accept: 'text/html' }, body: multipart.body });
    add('text/plain', url, { method, headers: { 'content-type': 'text/plain' }, body: 'email=a\u0000b' });
    add('form as json', url, { method, headers: { 'content-type': 'application/json', accept: 'text/html' }, body: 'email=a%40b.c' });
  }
  for (const method of WRONG_METHODS) add('method', path, { method, headers: { accept: rnd.pick(['text/html', 'application/json']) } });
}

/** Sends the jobs, eight at a time; answers every 5xx and dropped connection. */
async function runJobs(server: TestServer, jobs: Job[], describeJob: (job: Job) => string): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const what = `${job.options.method ?? 'GET'} ${job.path.slice(0, 120)} (${describeJob(job)})`;
        try {
          const res = await server.request(job.path, job.options);
          if (res.status >= 500) failures.push(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
        } catch (err) {
          failures.push(`${what} → ${(err as Error).message}`);
        }
      }
    }),
  );
  return failures;
}

describe('SEC-04 input fuzz', () => {
  let server: TestServer;
  let kind: 'pglite' | 'postgres';
  let memberCookie = '';

  beforeAll(async () => {
    // PostgreSQL when it is there: it refuses NUL bytes where PGlite is lenient in places.
    [kind] = (await databaseKinds()) as [typeof kind];
    // Behind a trusted proxy, each request from its own address: the fuzz is not stopped by the per-address throttles.
    server = await startTestServer({ db: kind, env: { TRUST_PROXY: 'true' } });
    const login = await server.request('/api/user.php', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      body: { action: 'login', email: DEMO_ACCOUNTS.free.email, password: DEMO_ACCOUNTS.free.password },
    });
    memberCookie = `session=${login.setCookies.session?.value ?? ''}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SEC-04 the targets come from the files: every page route and every contract path', () => {
    const pages = pageTargets();
    const api = contractTargets();
    expect(pages.map((t) => t.path)).toEqual(expect.arrayContaining(['/', '/login', '/signup', '/complaints', '/reset-password', '/api/user.php', '/api/invitation.php']));
    expect(api.find((t) => t.path === '/api/user.php')?.methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT']));
    expect(api.find((t) => t.path === '/api/user.php')?.names).toEqual(expect.arrayContaining(['email', 'password']));
    expect(api.find((t) => t.path === '/api/signup.php')?.names).toEqual(expect.arrayContaining(['email', 'name', 'password']));
    expect(pages.find((t) => t.path === '/login')?.names).toEqual(expect.arrayContaining(['email', 'password']));
    expect(fieldNames()).toEqual(expect.arrayContaining(['email', 'password', 'next', 'name', 'domain', 'message']));
  });

  it('SEC-04 a few thousand malformed requests to every endpoint and form: none answers 5xx', async () => {
    const rnd = prng(SEED);
    const names = fieldNames();
    const byPath = new Map<string, Target>();
    for (const t of [...pageTargets(), ...contractTargets()]) {
      const known = byPath.get(t.path);
      if (known) known.methods = [...new Set([...known.methods, ...t.methods])];
      else byPath.set(t.path, { ...t, names: [...t.names] });
    }
    const origin = `http://localhost:${server.port}`;
    const jobs: Job[] = [];
    const fuzzer: Fuzzer = {
      rnd,
      names,
      plausible: plausibleValues(names),
      add: (label, path, options) => {
        const member = rnd.next() < 0.5;
        const address = `${rnd.pick(['203.0.113', '198.51.100', '192.0.2'])}.${1 + Math.floor(rnd.next() * 254)}`;
        const headers = { origin, 'x-forwarded-for': address, ...(member ? { cookie: memberCookie } : {}), ...options.headers };
        jobs.push({ label, path, options: { ...options, headers } });
      },
    };
    for (const target of [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))) await targetJobs(fuzzer, target);

    const started = Date.now();
    const failures = await runJobs(server, jobs, (job) => `${job.label}${job.options.headers?.cookie ? ', member' : ''}`);
    const seconds = (Date.now() - started) / 1000;
    console.info(`SEC-04 fuzz (${kind}): ${jobs.length} requests to ${byPath.size} targets in ${seconds.toFixed(1)} s`);
    expect(jobs.length).toBeGreaterThan(2_000);
    expect(failures).toEqual([]);
  }, 300_000);
});

/** Ids as a URL or a form may carry them: out of int32, signed, padded, in other notations, with control characters. */
const BAD_IDS = [
  '0',
  '-1',
  '2147483648',
  '4294967296',
  '9999999999',
  '99999999999999999999',
  'abc',
  '1e3',
  '%201',
  '1%20',
  '01',
  '%2B1',
  '1.0',
  '0x1F',
  '%0d%0a',
  '1%0a',
  '%D9%A1',
  '1,2',
  '2147483647',
];
const BAD_NAMES = ['x.webp', '..%2f..%2fetc%2fpasswd', '%0d%0a.webp', `${'a'.repeat(300)}.webp`, 'x.svg', '%00.webp'];
/** `next` values that must never become a redirect anywhere but a back-office path. */
const BAD_NEXT = [
  '/admin%0d%0aX:1',
  '/admin%0aSet-Cookie:%20x=1',
  '/admin%09/x',
  '//evil.example',
  '/admin/../members',
  '/admin/%2F%2Fevil.example',
  'https://evil.example',
  '/admin%5Cevil',
  '/admin%E2%80%A8',
  '%ff',
  '/admin?x=%0d%0a',
  `/admin/${'a'.repeat(600)}`,
  '/administrator',
  '/admin%20x',
  '/admin#%0d%0a',
];

describe.each(await databaseKinds())('SEC-19 staff pages and dev viewers fuzz on %s', (kind) => {
  let server: TestServer;
  const sessions: Record<'admin' | 'moderator' | 'operator', string> = { admin: '', moderator: '', operator: '' };
  const real = { complaint: 0, member: 0, conversation: 0, mail: 0, site: 1, photo: '' };
  let memberSession = '';

  beforeAll(async () => {
    // No proxy in front: the requests come from this machine, which alone may read the dev viewers.
    server = await startTestServer({ db: kind });
    const { db } = server.booted.app;
    const origin = `http://localhost:${server.port}`;
    // The demo's staff, each logged in once (a code is good once per account).
    for (const role of Object.keys(sessions) as Array<keyof typeof sessions>) {
      const body = new URLSearchParams({ email: `${role}@demo.test`, password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString();
      const res = await server.request('/admin/login', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body });
      sessions[role] = res.setCookies.staff_session!.value;
    }
    // A record behind each id route: a conversation with a fictional profile, a complaint, a mail.
    const login = await server.request('/api/user.php', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      body: { email: DEMO_ACCOUNTS.premium.email, password: DEMO_ACCOUNTS.premium.password },
    });
    memberSession = login.setCookies.session!.value;
    const [premium] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, DEMO_ACCOUNTS.premium.email), eq(users.siteId, 1)));
    const [fictional] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'fictional'), eq(users.siteId, 1), eq(users.status, 'active')))
      .limit(1);
    await server.request('/api/chat.php', {
      method: 'POST',
      cookies: { session: login.setCookies.session!.value },
      headers: { origin },
      body: { to: fictional!.id, client_id: 'sec19-fuzz-1', body: 'Hello there' },
    });
    const [conversation] = await db.select({ id: conversations.id }).from(conversations).orderBy(asc(conversations.id)).limit(1);
    const [complaint] = await db
      .insert(complaints)
      .values({ siteId: 1, userId: premium!.id, name: 'Fuzz', email: 'fuzz@example.com', subject: 'Subject', message: 'Message' })
      .returning({ id: complaints.id });
    const [mail] = await db
      .insert(mailOutbox)
      .values({ siteId: 1, kind: 'activation', toAddress: 'fuzz@example.test', fromAddress: 'noreply@example.test', subject: 'Activate', text: 'Open http://localhost/activate/abc', html: '<p>x</p>' })
      .returning({ id: mailOutbox.id });
    const [photo] = await db.select({ name: photos.filename }).from(photos).limit(1);
    Object.assign(real, { complaint: complaint!.id, member: premium!.id, conversation: conversation!.id, mail: mail!.id, photo: photo?.name ?? 'x.webp' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('SEC-19 the staff sessions and the dev viewers are open to the fuzz (else it would only meet the login page and the 404)', async () => {
    const page = (path: string, role: keyof typeof sessions) => server.request(path, { cookies: { staff_session: sessions[role] } });
    expect((await page(`/admin/complaints/${real.complaint}`, 'admin')).status).toBe(200);
    expect((await page(`/admin/members/${real.member}`, 'moderator')).status).toBe(200);
    expect((await page(`/admin/operator/${real.conversation}`, 'operator')).status).toBe(200);
    expect((await page(`/admin/sites/${real.site}`, 'admin')).status).toBe(200);
    expect((await server.request(`/dev/mail/${real.mail}`)).status).toBe(200);
    expect((await server.request('/dev/sms')).status).toBe(200);
  });

  it("SEC-19 the audit's cases: bad and unknown ids are the 404 page (a form posted to one too), /500 is no page, `next` with CR/LF goes to /admin", async () => {
    const origin = `http://localhost:${server.port}`;
    const asAdmin = (path: string, body?: string) =>
      server.request(
        path,
        body === undefined ? { cookies: { staff_session: sessions.admin } } : { method: 'POST', cookies: { staff_session: sessions.admin }, headers: { origin, ...FORM_POST }, body },
      );
    for (const route of ['complaints', 'members', 'operator', 'sites']) {
      for (const id of ['2147483648', '99999999999999999999', '0', 'abc', '1e3', '01', '99999']) {
        const res = await asAdmin(`/admin/${route}/${id}`);
        expect([route, id, res.status]).toEqual([route, id, 404]);
        expect(res.text).toContain('data-error-page="404"');
      }
    }
    // A form posted to an unknown id: the action refuses, and the page is the 404 page (it was RewriteWithBodyUsed, a 500).
    for (const [path, body] of [
      ['/admin/complaints/99999', 'action=status&status=handled'],
      ['/admin/complaints/2147483648', 'action=note&text=x'],
      ['/admin/members/99999', 'action=ban&reason=x'],
      ['/admin/members/99999', 'action=nothing'],
      ['/admin/operator/99999', 'action=take'],
      ['/admin/sites/99999', 'settings.name=x'],
    ] as const) {
      const res = await asAdmin(path, body);
      expect([path, body, res.status]).toEqual([path, body, 404]);
      expect(res.text).toContain('data-error-page="404"');
    }
    expect((await server.request('/dev/mail/2147483648')).status).toBe(404);
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'HEAD']) expect([method, (await server.request('/500', { method, headers: { origin } })).status]).toEqual([method, 404]);
    const staffLogin = await server.request('/admin/login?next=/admin%0d%0aX:1', { cookies: { staff_session: sessions.admin } });
    expect(staffLogin.status).toBe(303);
    expect(staffLogin.headers.location).toBe('/admin');
    expect(staffLogin.headers.x).toBeUndefined();
  });

  it('SEC-19 a likes cursor of a day the calendar lacks starts the list at the top (it cut the page off in the middle)', async () => {
    const res = await completeAnswer(server.port, '/likes/received?after=2024-02-30T00:00:00Z_5', `session=${memberSession}`);
    expect(res.status).toBe(200);
    expect(res.complete).toBe(true);
    expect(res.text).toContain('</html>');
  });

  it("SEC-19 a package number beyond the database's integer is the credits form's own field error, not the error page", async () => {
    // It reached the database (22003), whose refusal the safety net answered 400 with the error page (and
    // Astro sent that page as a 500); the form now reads it with parseId. The safety net: safety-net.test.ts.
    const res = await server.request('/credits', {
      method: 'POST',
      cookies: { lang: 'en', session: memberSession },
      headers: { origin: `http://localhost:${server.port}`, ...FORM_POST },
      body: 'package=9999999999&method=ideal',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('data-field-error="package"');
    expect(res.text).not.toContain('data-error-page');
  });

  it('SEC-19 staff pages and forms with bad ids, odd fields and bad `next`, as each role, and the dev viewers: none answers 5xx', async () => {
    const rnd = prng(SEED ^ 0x19);
    const names = fieldNames();
    const origin = `http://localhost:${server.port}`;
    const jobs: Job[] = [];
    const roles = ['admin', 'admin', 'admin', 'moderator', 'operator', null] as const;
    const fuzzer: Fuzzer = {
      rnd,
      names,
      plausible: plausibleValues(names),
      // No forwarding headers: the dev viewers answer this machine only when nothing says a proxy is in between.
      add: (label, path, options) => {
        const role = rnd.pick(roles);
        const cookie = [role ? `staff_session=${sessions[role]}` : '', rnd.next() < 0.3 ? 'lang=de' : ''].filter(Boolean).join('; ');
        jobs.push({ label: `${label}${role ? `, ${role}` : ''}`, path, options: { ...options, headers: { origin, ...(cookie ? { cookie } : {}), ...options.headers } } });
      },
    };
    const routes = pageRoutes().filter((r) => /^\/(admin|dev)(\/|$)|^\/(404|500)$/.test(r.path));
    const realFor = (path: string) =>
      path.startsWith('/admin/complaints')
        ? real.complaint
        : path.startsWith('/admin/members')
          ? real.member
          : path.startsWith('/admin/operator')
            ? real.conversation
            : path.startsWith('/admin/sites')
              ? real.site
              : real.mail;
    for (const route of routes.sort((a, b) => a.path.localeCompare(b.path))) {
      // Logging out would end the session the rest of the run needs: it comes last.
      if (route.path === '/admin/logout') continue;
      if (!route.path.includes('[')) {
        await targetJobs(fuzzer, route);
        for (const query of route.queries ?? [])
          for (const value of [...BAD_IDS, ...(query === 'next' ? BAD_NEXT : [])]) fuzzer.add('query id', `${route.path}?${query}=${value}`, { headers: { accept: 'text/html' } });
        continue;
      }
      const realId = String(realFor(route.path));
      const variants = expandRoute(route.path, (name) => (name === 'name' ? [...BAD_NAMES, real.photo] : [...BAD_IDS, realId]));
      for (const path of variants) {
        fuzzer.add('id', path, { headers: { accept: rnd.pick(['text/html', '*/*']) } });
        fuzzer.add('id', path, { method: 'HEAD' });
        fuzzer.add('id', path, { method: 'DELETE' });
        for (const action of [...new Set(route.values), 'no-such-action']) {
          fuzzer.add('id form', path, { method: 'POST', headers: FORM_POST, body: urlencoded(fuzzer, { ...fuzzer.plausible, action, id: rnd.pick(BAD_IDS), payment: rnd.pick(BAD_IDS) }, 0) });
        }
        fuzzer.add('id json', path, { method: 'POST', headers: XHR_JSON, body: JSON.stringify({ action: rnd.pick(route.values.length ? route.values : ['x']), conversation: 2 ** 31 }) });
      }
      // The whole fuzz on the route with an id that exists: past the lookup, into the forms.
      await targetJobs(fuzzer, { ...route, path: expandRoute(route.path, (name) => [name === 'name' ? real.photo : realId])[0]! });
    }
    // The members' own id routes (profiles, chats, likes, landings, orders), as the member, with the same ids.
    const memberRoutes = pageRoutes().filter((r) => r.path.includes('[id]') && !/^\/(admin|dev)\//.test(r.path));
    for (const route of memberRoutes) {
      for (const path of expandRoute(route.path, (name, spread) => (spread ? ['a'] : name === 'id' ? BAD_IDS : ['x']))) {
        const headers = { cookie: `session=${memberSession}` };
        jobs.push({ label: 'member id', path, options: { headers: { origin, ...headers, accept: 'text/html' } } });
        for (const action of [...new Set(route.values)].slice(0, 3)) {
          jobs.push({ label: 'member id form', path, options: { method: 'POST', headers: { origin, ...headers, ...FORM_POST }, body: urlencoded(fuzzer, { ...fuzzer.plausible, action }, 0) } });
        }
      }
    }
    // The staff login with a session: `next` is where it sends the staff member at once.
    for (const next of BAD_NEXT) {
      fuzzer.add('next', `/admin/login?next=${next}`, { headers: { accept: 'text/html' } });
      fuzzer.add('next', `/admin/login?next=${next}`, { method: 'POST', headers: FORM_POST, body: urlencoded(fuzzer, { email: 'admin@demo.test', password: 'wrong-password', code: '000000' }, 0) });
    }

    const started = Date.now();
    const failures = await runJobs(server, jobs, (job) => job.label);
    // Last, logging out with odd bodies, as each role.
    const logouts: Job[] = Object.values(sessions).flatMap((session) => [
      { label: 'logout form', path: '/admin/logout', options: { method: 'POST', headers: { origin, ...FORM_POST, cookie: `staff_session=${session}` }, body: 'x=%0d%0a&next=//evil.example' } },
      { label: 'logout json', path: '/admin/logout', options: { method: 'POST', headers: { origin, ...XHR_JSON, cookie: `staff_session=${session}` }, body: '{' } },
    ]);
    failures.push(...(await runJobs(server, logouts, (job) => job.label)));
    const seconds = (Date.now() - started) / 1000;
    console.info(`SEC-19 fuzz (${kind}): ${jobs.length + logouts.length} requests to ${routes.length} staff and dev routes and ${memberRoutes.length} member id routes in ${seconds.toFixed(1)} s`);
    expect(jobs.length).toBeGreaterThan(1_000);
    expect(failures).toEqual([]);
  }, 300_000);
});

/** A GET read to its end over its own connection: the status, the body, and whether it ended or was cut off. */
function completeAnswer(port: number, path: string, cookie: string): Promise<{ status: number; text: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `localhost:${port}`, cookie, accept: 'text/html' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const done = (complete: boolean) => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), complete });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(res.complete));
      res.on('error', () => done(false));
    });
    req.on('error', reject);
    req.end();
  });
}
