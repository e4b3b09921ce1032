/**
 * The edge of the server over real HTTP (docs/decisions/014): body limits while streaming (SEC-03),
 * refused input and methods (SEC-04), reason phrases, nosniff, and logs without secrets (SEC-08).
 */
import { connect } from 'node:net';
import { request as httpRequest, STATUS_CODES } from 'node:http';
import { Writable } from 'node:stream';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../src/db/schema';
import { DEMO_ACCOUNTS } from '../../src/demo/seed';
import { createLogger } from '../../src/server/logger';
import { databaseKinds } from '../setup/databases';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** What a browser sends with a form post or a link it follows: it wants a page. */
const NAVIGATION = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
// PostgreSQL when it is there: it is the database that refuses NUL bytes.
const [KIND] = (await databaseKinds()) as ['pglite' | 'postgres'];

/** Everything the server logs, as text. */
const logLines: string[] = [];
const capture = new Writable({
  write(chunk, _enc, done) {
    logLines.push(String(chunk));
    done();
  },
});

let server: TestServer;
let origin: string;
let ip = 0;
const nextIp = () => `203.0.113.${(++ip % 250) + 1}`;

beforeAll(async () => {
  server = await startTestServer({ db: KIND, env: { TRUST_PROXY: 'true' }, log: createLogger('debug', capture) });
  origin = `http://localhost:${server.port}`;
});
afterAll(async () => {
  await server?.close();
});

/**
 * POSTs a chunked body of up to `total` bytes in 64 KB chunks, stopping as soon as the answer arrives.
 * Returns the answer and how much of the body had been sent by then.
 */
function chunkedPost(path: string, headers: Record<string, string>, total: number): Promise<{ status: number; type: string; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest(
      { host: '127.0.0.1', port: server.port, path, method: 'POST', headers: { host: `localhost:${server.port}`, origin, 'x-forwarded-for': nextIp(), 'transfer-encoding': 'chunked', ...headers } },
      (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8'), sent: sentWhenAnswered }));
        res.on('error', reject);
      },
    );
    // After the answer the server drops the rest for a moment, then closes: a write error then is expected.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      if (answered || sent >= total) return void req.end();
      sent += chunk.length;
      req.write(chunk, () => setImmediate(pump));
    };
    pump();
  });
}

describe(`SEC-03 body limits while streaming (${KIND})`, () => {
  const TOTAL = 32 * 1024 * 1024;

  it.each([
    ['a JSON endpoint', '/api/user.php', { ...XHR, 'content-type': 'application/json' }, 'application/json'],
    ['a form page', '/login', FORM, 'text/html'],
    ['invitation.php as a browser form', '/api/invitation.php', { ...FORM, ...NAVIGATION }, 'text/html'],
    ['invitation.php as JSON', '/api/invitation.php', { 'content-type': 'application/json' }, 'application/json'],
  ])('SEC-03 a chunked POST of many MB to %s gets 413 before the body is sent in full', async (_name, path, headers, type) => {
    const rssBefore = process.memoryUsage().rss;
    const res = await chunkedPost(path, headers, TOTAL);
    expect(res.status).toBe(413);
    expect(res.type).toContain(type);
    if (type === 'application/json') expect(JSON.parse(res.body).error).toBe('payload_too_large');
    else expect(res.body).toContain('data-error-page="413"');
    // The answer came while the client was still sending; the server held at most its 64 KB limit.
    expect(res.sent).toBeLessThan(TOTAL / 2);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(16 * 1024 * 1024);
  });

  it('SEC-03 a photo upload over its own limit (chunked multipart) gets 413 with the photo message; a declared 1 GB body is refused unread', async () => {
    const upload = await chunkedPost('/complete-signup', { 'content-type': 'multipart/form-data; boundary=x' }, 32 * 1024 * 1024);
    expect(upload.status).toBe(413);
    expect(upload.sent).toBeLessThan(24 * 1024 * 1024);
    expect(upload.body).toMatch(/too large/i);
    // (Connection: close: this client says 1 GB but sends nothing, so its socket must not carry the next request.)
    const declared = await server.request('/api/signup.php', { method: 'POST', headers: { ...XHR, connection: 'close', 'content-length': String(1024 ** 3) }, body: undefined });
    expect(declared.status).toBe(413);
    expect(declared.json().error).toBe('payload_too_large');
  });

  it.each([
    ['a fetch() or XMLHttpRequest of a FormData (Accept */*)', { 'content-type': 'multipart/form-data; boundary=x', accept: '*/*' }],
    ['a multipart post without Accept', { 'content-type': 'multipart/form-data; boundary=x' }],
  ])("SEC-19 an upload to /api/photos.php over its limit from %s is a JSON 413 (photo_too_large, the upload's code)", async (_name, headers) => {
    const res = await chunkedPost('/api/photos.php', headers, 16 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.type).toContain('application/json');
    expect(JSON.parse(res.body)).toEqual({ error: 'photo_too_large', message: expect.stringMatching(/.+/) });
    // Declared too large: refused unread, also as JSON. (Connection: close: this client says 11 MB but sends nothing.)
    const declared = await server.request('/api/photos.php', { method: 'POST', headers: { ...headers, origin, connection: 'close', 'content-length': String(11 * 1024 * 1024) }, body: undefined });
    expect(declared.status).toBe(413);
    expect(declared.json().error).toBe('photo_too_large');
  });

  it("SEC-19 API clients get JSON for every refusal at the edge under /api/, a form too; a browser's form post or navigation there still gets the page", async () => {
    const big = `email=${'x'.repeat(70 * 1024)}`;
    const script = await server.request('/api/invitation.php', { method: 'POST', headers: { ...FORM, origin, 'x-forwarded-for': nextIp() }, body: big });
    expect(script.status).toBe(413);
    expect(script.json()).toEqual({ error: 'payload_too_large', message: expect.stringMatching(/.+/) });
    const browser = await server.request('/api/invitation.php', { method: 'POST', headers: { ...FORM, ...NAVIGATION, origin, 'x-forwarded-for': nextIp() }, body: big });
    expect(browser.status).toBe(413);
    expect(browser.headers['content-type']).toContain('text/html');
    expect(browser.text).toContain('data-error-page="413"');
    // A NUL in the URL and a method the app does not serve, from a script's multipart post: JSON as well.
    const multipart = { 'content-type': 'multipart/form-data; boundary=x', origin, 'x-forwarded-for': nextIp() };
    const nul = await server.request('/api/photos.php?x=%00', { method: 'POST', headers: multipart, body: '--x--\r\n' });
    expect([nul.status, nul.json().error]).toEqual([400, 'validation_failed']);
    const method = await server.request('/api/photos.php', { method: 'PROPFIND', headers: multipart, body: '--x--\r\n' });
    expect([method.status, method.json().error]).toEqual([405, 'method_not_allowed']);
    // Outside /api/ a form post is a browser's, as before: the page.
    const page = await server.request('/login', { method: 'POST', headers: { ...FORM, origin, 'x-forwarded-for': nextIp() }, body: big });
    expect(page.status).toBe(413);
    expect(page.text).toContain('data-error-page="413"');
  });

  it('SEC-03 a body just under the limit still reaches the endpoint; 64 KB + 1 does not', async () => {
    const filler = (size: number) => JSON.stringify({ email: 'a@b.c', password: 'x', pad: 'p'.repeat(size) });
    const under = filler(64 * 1024 - filler(0).length);
    const over = filler(64 * 1024 - filler(0).length + 1);
    expect((await server.request('/api/user.php', { method: 'POST', headers: { ...XHR, 'x-forwarded-for': nextIp() }, body: under })).status).toBe(401);
    expect((await server.request('/api/user.php', { method: 'POST', headers: { ...XHR, 'x-forwarded-for': nextIp() }, body: over })).status).toBe(413);
  });
});

describe(`SEC-04 input the database cannot take answers 400, never 500 (${KIND})`, () => {
  const form = (body: string) => () => ({ method: 'POST', headers: { ...FORM, origin, accept: 'text/html', 'x-forwarded-for': nextIp() }, body });
  const json = (body: unknown) => () => ({ method: 'POST', headers: { ...XHR, 'content-type': 'application/json', 'x-forwarded-for': nextIp() }, body: JSON.stringify(body) });

  // [name, path, options, expected status]: NUL is refused with 400; a CR/LF `next` is ignored (the page, or its redirect, uses its default).
  it.each([
    ['login e-mail (JSON)', '/api/user.php', json({ email: 'a\u0000@example.com', password: 'whatever-123' }), 400],
    ['login e-mail (form)', '/login', form('email=a%00%40example.com&password=whatever-123'), 400],
    ['complaint text', '/complaints', form('name=Ada&email=ada%40example.com&message=hello%00there&subject=x'), 400],
    ['signup name', '/api/signup.php', json({ email: 'nul@example.com', name: 'Ab\u0000c', password: 'Very-long-pass-123', date_of_birth: '1990-01-01', gender: 'male', looking_for: 'female' }), 400],
    ['reset e-mail', '/reset-password', form('email=a%00%40example.com'), 400],
    ['settings.php?domain=%00', '/api/settings.php?domain=%00', () => ({ headers: XHR }), 400],
    ['page-bounce path', '/api/page-bounce.php', json({ path: '/a\u0000', duration_ms: 5 }), 400],
    ['next with NUL (query)', '/login?next=%2F%00', () => ({ headers: { accept: 'text/html' } }), 400],
    ['NUL in a raw form body', '/login', form('email=a\u0000b'), 400],
    ['next with CR/LF (query)', '/login?next=%2F%0d%0aX-Evil:%201', () => ({ headers: { accept: 'text/html' } }), 200],
    ['next with CR/LF (entry warning form)', '/api/entry-warning.php', form('next=%2F%0d%0aX-Evil%3A%201'), 303],
  ] as const)('SEC-04 %s', async (_name, path, options, expected) => {
    const res = await server.request(path, options() as never);
    expect(res.status).toBe(expected);
    if (String(res.headers['content-type']).includes('json')) expect(res.json().error).toBe('validation_failed');
    expect(res.headers.location ?? '').not.toMatch(/[\r\n\0]/);
    expect(res.headers['x-evil']).toBeUndefined();
  });

  it('SEC-04 CONNECT and a method node does not know answer 405 too', async () => {
    expect((await rawRequest(['CONNECT example.com:443 HTTP/1.1'])).statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
    expect((await rawRequest(['BREW / HTTP/1.1'])).statusLine).toBe('HTTP/1.1 405 Method Not Allowed');
  });

  it.each(['TRACE', 'PROPFIND', 'MKCOL'])('SEC-04 %s answers 405 JSON with the allowed methods', async (method) => {
    const res = await server.request('/', { method });
    expect(res.status).toBe(405);
    expect(res.json().error).toBe('method_not_allowed');
    expect(res.headers.allow).toContain('GET');
  });

  it('SEC-04 the safety net: a NUL that passes the edge (a multipart form field) still answers 400, not 500', async () => {
    const body = new FormData();
    body.set('email', 'a\u0000@example.com');
    body.set('password', 'whatever-123');
    const built = new Request('http://localhost/', { method: 'POST', body });
    const res = await server.request('/login', {
      method: 'POST',
      headers: { origin, accept: 'text/html', 'x-forwarded-for': nextIp(), 'content-type': built.headers.get('content-type') ?? '' },
      body: Buffer.from(await built.arrayBuffer()),
    });
    expect(res.status).toBe(KIND === 'postgres' ? 400 : 401);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

/** One request over a raw socket: the status line as the server wrote it, and the header block. */
function rawRequest(lines: string[], body = ''): Promise<{ statusLine: string; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end >= 0) {
        socket.destroy();
        resolve({ statusLine: data.slice(0, data.indexOf('\r\n')), head: data.slice(0, end) });
      }
    });
    socket.on('error', reject);
    socket.write(`${lines.join('\r\n')}\r\nHost: localhost:${server.port}\r\nConnection: close\r\n\r\n${body}`);
  });
}

describe('reason phrases and nosniff on every answer', () => {
  const wrongLogin = JSON.stringify({ email: DEMO_ACCOUNTS.free.email, password: 'not-the-password' });
  const cases: Array<[string, string[], string?]> = [
    ['200 a page', ['GET / HTTP/1.1', 'Accept: text/html']],
    ['200 JSON', ['GET /api/companyinfo.php HTTP/1.1']],
    ['200 a static file', ['GET /favicon.svg HTTP/1.1']],
    ['200 health', ['GET /healthz HTTP/1.1']],
    ['302 a redirect', ['GET /complete-signup HTTP/1.1', 'Accept: text/html']],
    ['400 a NUL in the URL', ['GET /api/settings.php?domain=%00 HTTP/1.1']],
    [
      '401 a wrong password',
      ['POST /api/user.php HTTP/1.1', 'X-Requested-With: XMLHttpRequest', 'X-Forwarded-For: 203.0.113.251', 'Content-Type: application/json', `Content-Length: ${wrongLogin.length}`],
      wrongLogin,
    ],
    ['403 members only', ['GET /api/user.php HTTP/1.1']],
    ['404 a page', ['GET /no-such-page HTTP/1.1', 'Accept: text/html']],
    ['404 the API', ['GET /api/no-such.php HTTP/1.1']],
    ['405 TRACE', ['TRACE / HTTP/1.1']],
    ['413 too large', ['POST /api/user.php HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 99999999']],
    ['431 headers too large', ['GET / HTTP/1.1', `X-Big: ${'b'.repeat(20_000)}`]],
  ];

  it.each(cases)('the status line of %s carries the standard reason phrase and the answer says nosniff', async (name, lines, body) => {
    const { statusLine, head } = await rawRequest(lines, body);
    const status = Number(name.slice(0, 3));
    expect(statusLine).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
    expect(head).toMatch(/\r\nx-content-type-options: nosniff(\r\n|$)/i);
  });
});

describe('SEC-08 no secrets or personal data in the logs', () => {
  it('SEC-08 signup, a failed login, a reset request, an activation link, an e-mail in a query and a refused NUL log none of the e-mail, password, hash or token', async () => {
    const email = `Secret.Person+${KIND}@example.com`;
    const password = 'Sup3r-Secret-Passphrase!';
    logLines.length = 0;
    const signup = await server.request('/api/signup.php', {
      method: 'POST',
      headers: { ...XHR, 'x-forwarded-for': nextIp() },
      body: { email, name: 'Secretperson', password, date_of_birth: '1990-05-05', gender: 'male', looking_for: 'female' },
    });
    expect(signup.status).toBe(201);
    await server.booted.app.background.idle();
    const [user] = await server.booted.app.db.select().from(users).where(eq(users.email, email));
    const [mail] = await server.booted.app.db.select().from(mailOutbox).where(eq(mailOutbox.userId, user!.id)).orderBy(desc(mailOutbox.id)).limit(1);
    const token = /token=([\w-]+)/.exec(mail!.text)?.[1] ?? '';
    expect(token.length).toBeGreaterThan(10);

    const failed = await server.request('/api/user.php', { method: 'POST', headers: { ...XHR, 'x-forwarded-for': nextIp() }, body: { email, password: `${password}-wrong` } });
    expect(failed.status).toBe(401);
    const reset = await server.request('/reset-password', { method: 'POST', headers: { ...FORM, origin, 'x-forwarded-for': nextIp() }, body: `email=${encodeURIComponent(email)}` });
    expect(reset.status).toBeLessThan(500);
    const activation = await server.request(`/activate/done?token=${token}`, { headers: { accept: 'text/html' } });
    expect(activation.status).toBeLessThan(500);
    const query = await server.request(`/login?email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`, { headers: { accept: 'text/html' } });
    expect(query.status).toBe(200);
    // A database error carrying the e-mail among its query parameters (multipart passes the edge's NUL check).
    const body = new FormData();
    body.set('email', `${email}\u0000`);
    body.set('password', password);
    const built = new Request('http://localhost/', { method: 'POST', body });
    const refused = await server.request('/login', {
      method: 'POST',
      headers: { origin, 'x-forwarded-for': nextIp(), 'content-type': built.headers.get('content-type') ?? '' },
      body: Buffer.from(await built.arrayBuffer()),
    });
    expect(refused.status).toBeLessThan(500);
    await server.booted.app.background.idle();

    const text = logLines.join('');
    expect(text).toContain('"msg":"request"');
    expect(text).toContain('/activate/done');
    for (const secret of [email, email.toLowerCase(), encodeURIComponent(email), password, encodeURIComponent(password), user!.passwordHash ?? 'no-hash', token]) {
      expect(text.includes(secret), `the log holds ${secret}`).toBe(false);
    }
  });
});
