import { STATUS_CODES, createServer } from 'node:http';
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../server/logger';
import { MAX_UPLOAD_BODY_BYTES } from '../server/photos/upload';
import { endpoint } from '../server/web/api';
import { bodyKind, bodyLimit, UPLOAD_BODY_LIMIT, UPLOAD_PATHS } from '../server/web/body-limit';
import { isInputError, scrubError } from '../shared/input-errors';
import { bodyHasNul, prepareResponse } from './request-guard';

const root = join(import.meta.dirname, '..', '..');

/** What Drizzle throws for a query PostgreSQL refused: the parameters in `params` and in the message. */
function drizzleError(code: string, params: unknown[]) {
  const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code });
  return Object.assign(new Error(`Failed query: select * from users where email = $1\nparams: ${params.join(',')}`), { query: 'select …', params, cause });
}

describe('SEC-08 the logger redacts secrets', () => {
  function capture() {
    const lines: string[] = [];
    const log = createLogger('info', new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }));
    return { log, text: () => lines.join('') };
  }

  it('SEC-08 credential headers, passwords, e-mails, tokens and hashes are censored by path', () => {
    const { log, text } = capture();
    log.info(
      {
        headers: { authorization: 'Bearer abc.def', cookie: 'session=s3cr3t', 'set-cookie': 'session=s3cr3t2' },
        email: 'ann@example.com',
        user: { email: 'bob@example.com', passwordHash: '$argon2id$v=19$hash', token: 'tok-123' },
        input: { password: 'hunter2-pass' },
      },
      'x',
    );
    for (const secret of ['abc.def', 's3cr3t', 'ann@example.com', 'bob@example.com', '$argon2id$v=19$hash', 'tok-123', 'hunter2-pass']) expect(text()).not.toContain(secret);
    expect(text()).toContain('[redacted]');
  });

  it('SEC-08 secrets inside arrays and three levels down are censored; the logged object is left as it was', () => {
    const { log, text } = capture();
    const fields = { batch: [{ email: 'frank@example.com' }], a: { b: { c: { token: 'tok-deep' } } }, ok: 'kept' };
    log.info(fields, 'x');
    expect(text()).not.toMatch(/frank@example\.com|tok-deep/);
    expect(text()).toContain('kept');
    expect(fields.batch[0]!.email).toBe('frank@example.com');
  });

  it('SEC-08 an error is logged without its query parameters and with e-mail addresses masked', () => {
    const { log, text } = capture();
    log.error({ err: drizzleError('22021', [1, 'carol@example.com', '$argon2id$v=19$x']) }, 'endpoint failed');
    log.error({ err: new Error('550 mailbox <dave@example.com> unknown') }, 'mail could not be sent');
    expect(text()).not.toMatch(/carol@example\.com|argon2id|dave@example\.com/);
    expect(text()).toContain('Failed query');
    expect(text()).toContain('[email]');
  });
});

describe('SEC-04 the safety net', () => {
  it('SEC-04 database errors of class 22 (and 54000) are input errors, wrapped or not; others are not', () => {
    expect(isInputError(drizzleError('22021', []))).toBe(true);
    expect(isInputError(drizzleError('22P05', []))).toBe(true);
    expect(isInputError(drizzleError('22003', []))).toBe(true);
    expect(isInputError(drizzleError('54000', []))).toBe(true);
    expect(isInputError(drizzleError('23505', []))).toBe(false);
    expect(isInputError(new Error('boom'))).toBe(false);
    const scrubbed = scrubError(drizzleError('22021', ['erin@example.com']));
    expect(JSON.stringify({ m: scrubbed.message, s: scrubbed.stack, p: scrubbed.params })).not.toContain('erin@example.com');
  });

  it.each(['22021', '22P05'])('SEC-04 endpoint() answers a database input error %s with 400 validation_failed, not 500', async (code) => {
    const route = endpoint(() => {
      throw drizzleError(code, ['x']);
    });
    const res = await route({ locals: {}, url: new URL('http://localhost/api/x'), request: new Request('http://localhost/api/x') } as never);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('validation_failed');
  });

  it('SEC-04 NUL in a urlencoded or JSON value is found; elsewhere in JSON it is not', () => {
    expect(bodyHasNul(Buffer.from('email=a%00b'), 'application/x-www-form-urlencoded')).toBe(true);
    expect(bodyHasNul(Buffer.from('{"a":"x\\u0000"}'), 'application/json')).toBe(true);
    expect(bodyHasNul(Buffer.from('{"a":"x\\\\u0000"}'), 'application/json')).toBe(false);
    expect(bodyHasNul(Buffer.from('email=a%20b'), 'application/x-www-form-urlencoded')).toBe(false);
  });
});

describe('SEC-03 limits per kind of request', () => {
  it('SEC-03 JSON and forms 64 KB; multipart photo uploads the upload limit, only on the upload pages', () => {
    expect(bodyLimit(bodyKind('/api/user.php', 'application/json'))).toBe(64 * 1024);
    expect(bodyLimit(bodyKind('/login', 'application/x-www-form-urlencoded'))).toBe(64 * 1024);
    expect(bodyLimit(bodyKind('/login', 'multipart/form-data; boundary=x'))).toBe(64 * 1024);
    expect(bodyLimit(bodyKind('/complete-signup', 'multipart/form-data; boundary=x'))).toBe(UPLOAD_BODY_LIMIT);
    expect(UPLOAD_BODY_LIMIT).toBe(MAX_UPLOAD_BODY_BYTES);
  });

  it('SEC-03 every page with a multipart form is an upload path (read from src/pages)', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src/pages'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.astro'));
    const multipart = files.filter((f) => readFileSync(join(root, f), 'utf8').includes('multipart/form-data'));
    expect(multipart.length).toBeGreaterThan(0);
    for (const file of multipart) expect(UPLOAD_PATHS, file).toContain('/' + file.slice('src/pages/'.length).replace(/(\/index)?\.astro$/, ''));
  });
});

describe('reason phrases', () => {
  it.each([404, 401, 403, 429, 413])('a %i written with the reason "OK" goes out with the standard phrase', async (status) => {
    const server = createServer((_req, res) => {
      prepareResponse(res);
      res.writeHead(status, 'OK', { 'content-type': 'text/plain' });
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/`);
    server.close();
    expect(res.statusText).toBe(STATUS_CODES[status]);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
