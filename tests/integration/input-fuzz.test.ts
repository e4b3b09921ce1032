/**
 * SEC-04: a deterministic fuzz of every endpoint and page, against the built server. The targets are
 * read from the files, not kept by hand: the routes of src/pages/** and the paths and methods of
 * openapi/openapi.yaml; the field names from the forms (`name="…"`), the form handlers (`.text('…')`)
 * and the contract's properties and parameters. Every target gets malformed JSON, NUL/CR/LF and other
 * odd characters in fields, the query and the path, wrong types, huge values and wrong methods (TRACE
 * and unknown ones too), as a visitor and as a member. No answer may be a 5xx or a dropped connection.
 * The only randomness is a PRNG with a fixed seed, so a run can be replayed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/db/seed';
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
  return { next, pick: <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
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
}

const PARAM_SAMPLES: Record<string, string[]> = { id: ['1', '99999999999999999999', 'abc'], name: ['x.webp', '..%2f..%2fetc%2fpasswd'] };

/** The routes of src/pages/** (files and folders starting with `_` are not routes). */
export function pageTargets(): Target[] {
  const targets: Target[] = [];
  for (const file of gitFiles('src/pages')) {
    const rel = file.slice('src/pages/'.length);
    if (rel.split('/').some((part) => part.startsWith('_')) || !/\.(astro|ts)$/.test(rel) || rel.endsWith('.test.ts')) continue;
    const text = read(file);
    const values = [...text.matchAll(/value="([\w-]+)"/g)].map((m) => m[1]!);
    const formsFile = `src/server/web/forms/${rel.replace(/\/index\.astro$|\.astro$/, '').split('/').pop()}.ts`;
    let handler = '';
    try {
      handler = read(formsFile);
    } catch {
      handler = '';
    }
    const names = [...new Set([...`${text}\n${handler}`.matchAll(/name="([a-z_]+)"|\.(?:text|all)\('([a-z_]+)'\)/g)].map((m) => (m[1] ?? m[2])!))];
    const methods = rel.endsWith('.ts') ? [...text.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!) : ['GET', 'POST'];
    let route = '/' + rel.replace(/\.(astro|ts)$/, '').replace(/(^|\/)index$/, '');
    if (route === '/404' || route === '/500') continue;
    const variants: string[] = [route];
    for (const [, spread, name] of route.matchAll(/\[(\.\.\.)?(\w+)\]/g)) {
      const samples = spread ? ['a', 'a/b/c', '%ff'] : (PARAM_SAMPLES[name!] ?? ['1', 'x']);
      const next: string[] = [];
      for (const v of variants) for (const s of samples) next.push(v.replace(`[${spread ?? ''}${name}]`, s));
      variants.splice(0, variants.length, ...next);
    }
    for (const path of variants) targets.push({ path: path.replace(/\/+$/, '') || '/', methods: methods.length ? methods : ['GET'], values, names });
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
      (/email/.test(name) ? `fuzz-${name}@example.com`
        : /password/.test(name) ? 'demo-password-1'
        : /date|birth/.test(name) ? '1990-05-05'
        : /^(next|to|path|route|back)$/.test(name) ? '/members'
        : /lang/.test(name) ? 'en'
        : /(^|_)(id|step|ms|minutes|count|page)$/.test(name) ? '1'
        : /^(accept|enabled|invisible|heart|chat|globe|alert)$/.test(name) ? '1'
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
  '', 'a', 'a\u0000b', '\u0000', 'line\r\nSet-Cookie: x=1', '\r', '\n', '/\r\n/evil', '/%0d%0a', '\u2028\u2029', '\ud800', '😀'.repeat(50),
  "' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '//evil.example', 'https://evil.example', '9999-99-99', '1e309', '-1',
  '99999999999999999999', 'NaN', 'x'.repeat(5_000), 'é'.repeat(3_000), '\x7f\x1b[31m', 'a@b', 'free@demo.test', '%00', '%ff',
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

describe('SEC-04 input fuzz', () => {
  let server: TestServer;
  let kind: 'pglite' | 'postgres';
  let memberCookie = '';

  beforeAll(async () => {
    // PostgreSQL when it is there: it refuses NUL bytes where PGlite is lenient in places.
    kind = (await databaseKinds()).at(-1)!;
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
    const jobs: Array<{ label: string; path: string; options: RequestOptions }> = [];
    const plausible = plausibleValues(names);
    /** Mostly every known field with a plausible value, then `count` of them (often the page's own) made nasty. */
    const fields = (target: Target, count: number, sparse = false) => {
      const out: Record<string, unknown> = !sparse && rnd.next() < 0.75 ? { ...plausible } : {};
      for (let i = 0; i < count; i++) out[target.names.length > 0 && rnd.next() < 0.6 ? rnd.pick(target.names) : rnd.pick(names)] = rnd.next() < 0.5 ? rnd.pick(CONTROL_STRINGS) : rnd.pick(NASTY_JSON_VALUES);
      for (const name of ['action', 'form', 'step']) if (target.values.length > 0 && rnd.next() < 0.7) out[name] = rnd.pick(target.values);
      return out;
    };
    const urlencoded = (record: Record<string, unknown>, odd = 0.2) =>
      Object.entries(record)
        .map(([k, v]) => `${encodeURIComponent(k)}=${rnd.next() < odd ? rnd.pick(QUERY_VALUES) : encode(typeof v === 'string' ? v : JSON.stringify(v))}`)
        .join('&');
    const add = (label: string, path: string, options: RequestOptions) => {
      const member = rnd.next() < 0.5;
      const address = `${rnd.pick(['203.0.113', '198.51.100', '192.0.2'])}.${1 + Math.floor(rnd.next() * 254)}`;
      const headers = { origin, 'x-forwarded-for': address, ...(member ? { cookie: memberCookie } : {}), ...options.headers };
      jobs.push({ label, path, options: { ...options, headers } });
    };

    for (const target of [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path))) {
      const path = target.path.split('?')[0]!;
      const fixedQuery = target.path.includes('?') ? target.path.split('?')[1]! + '&' : '';
      // The query and the path.
      for (let i = 0; i < 5; i++) {
        const query = Object.entries(fields(target, 1 + Math.floor(rnd.next() * 3), true))
          .map(([k, v]) => `${k}=${rnd.next() < 0.5 ? rnd.pick(QUERY_VALUES) : encode(String(v))}`)
          .join('&');
        add('query', `${path}?${fixedQuery}${query}`, { headers: { accept: rnd.pick(['text/html', 'application/json', '*/*']) } });
      }
      for (const suffix of ['%00', '%0d%0a', '%ff', '/%2e%2e/', ';x=1', '/../../etc/passwd']) add('path', `${path}${suffix}`, { headers: { accept: 'text/html' } });
      // Bodies, for every method the target takes and for POST in any case.
      for (const method of new Set([...target.methods.filter((m) => m !== 'GET'), 'POST'])) {
        const url = `${path}${fixedQuery ? `?${fixedQuery.slice(0, -1)}` : ''}`;
        const xhr = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };
        for (const raw of RAW_JSON_BODIES) add('raw json', url, { method, headers: xhr, body: raw });
        for (let i = 0; i < 5; i++) add('json fields', url, { method, headers: xhr, body: JSON.stringify(fields(target, 2 + Math.floor(rnd.next() * 6))) });
        add('json wrong type', url, { method, headers: xhr, body: JSON.stringify(rnd.pick([[fields(target, 3)], 'text', 42])) });
        add('json huge', url, { method, headers: xhr, body: JSON.stringify({ [rnd.pick(names)]: 'x'.repeat(70 * 1024) }) });
        const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
        for (let i = 0; i < 5; i++) add('form fields', url, { method, headers: formHeaders, body: urlencoded(fields(target, 2 + Math.floor(rnd.next() * 6))) });
        // Each of the page's own fields in turn with a control character, the others plausible.
        for (const name of target.names) {
          for (const value of ['x@example.com\u0000', '/members\r\nX-Evil: 1']) {
            const record: Record<string, unknown> = { ...plausible, ...(target.values.length > 0 ? { action: rnd.pick(target.values), form: rnd.pick(target.values) } : {}), [name]: value };
            const asForm = rnd.next() < 0.5;
            add('one field', url, { method, headers: asForm ? formHeaders : xhr, body: asForm ? urlencoded(record, 0) : JSON.stringify(record) });
          }
        }
        add('form raw bytes', url, { method, headers: formHeaders, body: Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x3d, 0xff, 0xfe, 0x00, 0x26, 0x6e, 0x3d, 0xc3]) });
        add('form huge', url, { method, headers: formHeaders, body: `${rnd.pick(names)}=${'x'.repeat(70 * 1024)}` });
        const multipart = new FormData();
        for (const [k, v] of Object.entries(fields(target, 4))) multipart.set(k, typeof v === 'string' ? v : JSON.stringify(v));
        const built = new Request('http://localhost/', { method: 'POST', body: multipart });
        add('multipart', url, { method, headers: { 'content-type': built.headers.get('content-type')!, accept: 'text/html' }, body: Buffer.from(await built.arrayBuffer()) });
        add('text/plain', url, { method, headers: { 'content-type': 'text/plain' }, body: 'email=a\u0000b' });
        add('form as json', url, { method, headers: { 'content-type': 'application/json', accept: 'text/html' }, body: 'email=a%40b.c' });
      }
      for (const method of WRONG_METHODS) add('method', path, { method, headers: { accept: rnd.pick(['text/html', 'application/json']) } });
    }

    const failures: string[] = [];
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < jobs.length) {
          const job = jobs[next++]!;
          const what = `${job.options.method ?? 'GET'} ${job.path.slice(0, 120)} (${job.label}${job.options.headers?.cookie ? ', member' : ''})`;
          try {
            const res = await server.request(job.path, job.options);
            if (res.status >= 500) failures.push(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
          } catch (err) {
            failures.push(`${what} → ${(err as Error).message}`);
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    console.info(`SEC-04 fuzz (${kind}): ${jobs.length} requests to ${byPath.size} targets in ${seconds.toFixed(1)} s`);
    expect(jobs.length).toBeGreaterThan(2_000);
    expect(failures).toEqual([]);
  }, 300_000);
});
