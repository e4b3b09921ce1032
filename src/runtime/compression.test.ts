import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { compressResponse, isCompressibleType, MIN_COMPRESS_BYTES, negotiateEncoding, STREAM_AFTER_MS, ZSTD_AVAILABLE, type ContentEncoding } from './compression';

const ENCODINGS: readonly ContentEncoding[] = ZSTD_AVAILABLE ? ['br', 'gzip', 'zstd'] : ['br', 'gzip'];

function decode(encoding: ContentEncoding, body: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'zstd') return zstdDecompressSync(body);
  return gunzipSync(body);
}

describe('Accept-Encoding negotiation', () => {
  it('prefers brotli, honours q-values and q=0, and falls back to identity', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.4, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('deflate, identity')).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
  });

  it('breaks a tie with the caller’s preference (per-request bodies prefer zstd, then brotli, then gzip)', () => {
    expect(negotiateEncoding('gzip, deflate, br', ['gzip', 'br'])).toBe('gzip');
    expect(negotiateEncoding('gzip, deflate, br, zstd', ['zstd', 'br', 'gzip'])).toBe(ZSTD_AVAILABLE ? 'zstd' : 'br');
    expect(negotiateEncoding('gzip, deflate, br, zstd;q=0.5', ['zstd', 'br', 'gzip'])).toBe('br');
    expect(negotiateEncoding('gzip, deflate, zstd;q=0.5', ['zstd', 'br', 'gzip'])).toBe('gzip');
    expect(negotiateEncoding('zstd', ['zstd', 'br', 'gzip'])).toBe(ZSTD_AVAILABLE ? 'zstd' : null);
    // Static files are offered brotli and gzip only (their kept copies).
    expect(negotiateEncoding('zstd, br')).toBe('br');
    expect(negotiateEncoding('br', ['gzip', 'br'])).toBe('br');
    expect(negotiateEncoding('gzip;q=0.5, br', ['gzip', 'br'])).toBe('br');
  });

  it('compresses text, JSON, XML, JavaScript and SVG; never images, fonts or event streams', () => {
    for (const type of [
      'text/html',
      'text/html; charset=utf-8',
      'application/json; charset=utf-8',
      'text/css',
      'text/javascript',
      'application/xml',
      'image/svg+xml',
      'application/manifest+json',
      'application/problem+json',
      'text/plain',
    ]) {
      expect(isCompressibleType(type), type).toBe(true);
    }
    for (const type of ['image/webp', 'image/png', 'font/woff2', 'video/mp4', 'text/event-stream', 'application/octet-stream', 'application/zip', undefined]) {
      expect(isCompressibleType(type), String(type)).toBe(false);
    }
  });
});

describe('compressResponse', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
    const server = createServer((req, res) => {
      compressResponse(req, res);
      handler(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () => server.close();
    return (server.address() as AddressInfo).port;
  }

  function get(port: number, headers: Record<string, string> = {}, method = 'GET') {
    return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer; chunks: number }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), chunks: chunks.length }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  const page = '<!doctype html><p>' + 'Hallo wereld, dit is een pagina. '.repeat(200) + '</p>';

  /** Every encoding comes back compressed in one piece with its Content-Length, decoding to the page. */
  async function expectWholeInEveryEncoding(port: number): Promise<void> {
    for (const encoding of ENCODINGS) {
      const res = await get(port, { 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(decode(encoding, res.body).toString()).toBe(page);
    }
  }

  it(`streams an HTML body still incomplete ${STREAM_AFTER_MS} ms after its first write (Astro style: writeHead with headers, writes, end) as brotli, gzip or zstd`, async () => {
    const port = await serve((_req, res) => {
      res.writeHead(201, { 'content-type': 'text/html', vary: 'Cookie', 'x-test': 'yes' });
      res.write(page.slice(0, 300));
      res.write(Buffer.from(page.slice(300, 3000)));
      setTimeout(() => res.end(page.slice(3000)), STREAM_AFTER_MS + 60);
    });
    for (const encoding of ENCODINGS) {
      const res = await get(port, { 'accept-encoding': encoding });
      expect(res.status).toBe(201);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['x-test']).toBe('yes');
      expect(res.headers.vary).toBe('Cookie, Accept-Encoding');
      expect(res.headers['content-length']).toBeUndefined();
      expect(decode(encoding, res.body).toString()).toBe(page);
      // The part written before the pause was flushed on its own (the page streams).
      expect(res.chunks).toBeGreaterThan(1);
    }
    const plain = await get(port);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBeUndefined();
    expect(plain.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(plain.body.toString()).toBe(page);
    expect(plain.chunks).toBeGreaterThan(1);
  });

  it('holds a body written over many event-loop turns (a React island renders so) and sends it whole, compressed in one piece, with its Content-Length', async () => {
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const port = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      void (async () => {
        for (let at = 0; at < page.length; at += 500) {
          res.write(page.slice(at, at + 500));
          await turn();
          await new Promise<void>((resolve) => setTimeout(resolve, 1));
        }
        res.end();
      })();
    });
    await expectWholeInEveryEncoding(port);
    const plain = await get(port);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(page));
    expect(plain.body.toString()).toBe(page);
  });

  it('compresses a body written in one go in one piece, with its Content-Length', async () => {
    const port = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(page.slice(0, 100));
      res.write(page.slice(100));
      res.end();
    });
    await expectWholeInEveryEncoding(port);
    // What Safari sends: brotli, at the per-request quality (half gzip 6's CPU for about its size).
    const safari = await get(port, { 'accept-encoding': 'gzip, deflate, br' });
    expect(safari.headers['content-encoding']).toBe('br');
    expect(decode('br', safari.body).toString()).toBe(page);
    // What Chrome and Firefox send over HTTPS.
    const browser = await get(port, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(browser.headers['content-encoding']).toBe(ZSTD_AVAILABLE ? 'zstd' : 'br');
    expect(decode(browser.headers['content-encoding'] as ContentEncoding, browser.body).toString()).toBe(page);
  });

  it(`sends bodies under ${MIN_COMPRESS_BYTES} bytes as they are, with a Content-Length`, async () => {
    const small = JSON.stringify({ error: 'authentication_required' });
    const port = await serve((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.write(small.slice(0, 5));
      res.end(small.slice(5));
    });
    const res = await get(port, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(403);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(small.length));
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body.toString()).toBe(small);
  });

  it('leaves images, already-encoded bodies, no-transform, 204/304 and HEAD alone', async () => {
    const big = Buffer.alloc(5000, 7);
    const cases: Array<[string, (res: ServerResponse) => void]> = [
      [
        'image',
        (res) => {
          res.setHeader('content-type', 'image/webp');
          res.end(big);
        },
      ],
      [
        'encoded',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
          res.end(big);
        },
      ],
      [
        'no-transform',
        (res) => {
          res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-transform' });
          res.end(big);
        },
      ],
      [
        '304',
        (res) => {
          res.writeHead(304, { 'content-type': 'text/html' });
          res.end();
        },
      ],
    ];
    for (const [name, respond] of cases) {
      const port = await serve((_req, res) => respond(res));
      const res = await get(port, { 'accept-encoding': 'br' });
      expect(res.headers['content-encoding'] ?? 'none', name).toBe(name === 'encoded' ? 'gzip' : 'none');
      if (name !== '304') expect(res.body.equals(big), name).toBe(true);
      close?.();
    }
    const port = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end();
    });
    const head = await get(port, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('an event stream goes out at once and uncompressed', async () => {
    const port = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 10);
    });
    const res = await get(port, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('data: one\n\ndata: two\n\n');
  });

  it('write callbacks run, and headersSent is true once body bytes are held', async () => {
    const seen: string[] = [];
    let ended!: () => void;
    const endCallback = new Promise<void>((resolve) => (ended = resolve));
    const port = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      expect(res.headersSent).toBe(false);
      res.write('<p>short</p>', () => seen.push('first'));
      seen.push(`headersSent=${res.headersSent}`);
      res.write(page, () => seen.push('second'));
      res.end(() => {
        seen.push('end');
        ended();
      });
    });
    const res = await get(port, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(res.body).toString()).toBe(`<p>short</p>${page}`);
    await endCallback;
    expect(seen).toEqual(['headersSent=true', 'first', 'second', 'end']);
  });
});
