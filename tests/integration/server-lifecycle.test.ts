/** The process's HTTP server: error fallback, readiness and graceful shutdown, over real sockets. */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FALLBACK_ERROR_HTML, withErrorFallback } from '../../src/server/http/node-server';
import { startTestServer } from '../setup/server';

describe('server lifecycle', () => {
  it('ERR-02 when the error page itself fails, the fallback page with "Go back to home" is sent', async () => {
    const server = createServer((_req, res) => {
      withErrorFallback(res);
      // What the Astro adapter does when rendering the error page throws:
      res.statusCode = 500;
      res.end('Internal Server Error');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain('text/html');
    const body = await res.text();
    expect(body).toBe(FALLBACK_ERROR_HTML);
    expect(body).toContain('Go back to home');
    server.close();
  });

  it('graceful shutdown: the app drains, the request in flight is answered, then the port closes', async () => {
    const server = await startTestServer();
    const { port } = server;
    // A request whose body is still arriving when shutdown begins.
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/page-hidden.php', method: 'POST', headers: { host: `localhost:${port}`, 'content-type': 'application/json', 'content-length': '2' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      server.booted.server.once('request', () => {
        const closing = server.booted.close();
        expect(server.booted.app.draining).toBe(true);
        req.end('}');
        void closing;
      });
      req.write('{');
    });
    expect(await inFlight).toBe(204);
    await server.booted.close();
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    await server.database.drop();
  });
});
