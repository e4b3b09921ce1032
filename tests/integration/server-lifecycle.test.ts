/** The process's HTTP server: error fallback, readiness and graceful shutdown, over real sockets. */
import { once } from 'node:events';
import { Agent, createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FALLBACK_ERROR_HTML, KEEP_ALIVE_MS, withErrorFallback } from '../../src/runtime/node-server';
import { createLogger } from '../../src/server/logger';
import { haproxyConfig } from '../setup/cluster';
import { everyDatabaseKind } from '../setup/databases';
import { startTestServer } from '../setup/server';

const KINDS = await everyDatabaseKind();

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

  it('SCALE-02 an idle connection stays open longer than the balancer keeps one idle, and closes at shutdown', async () => {
    // Every idle time of the cluster's HAProxy (client and server sides; the tunnel is the live streams').
    const config = haproxyConfig(8080, [{ name: 'app1', port: 8081 }]);
    const idle = [...config.matchAll(/^\s*timeout (client|server|http-keep-alive) (\d+)s$/gm)].map((m) => Number(m[2]) * 1000);
    expect(idle.length).toBeGreaterThan(0);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(Math.max(...idle));
    const server = await startTestServer();
    const { port } = server;
    // A kept-alive request as a balancer sends it: the answer keeps the connection and says for how long.
    const answer = await new Promise<{ connection?: string; keepAlive?: string; socket: Socket }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/healthz', headers: { host: `localhost:${port}`, connection: 'keep-alive' }, agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on('end', () => resolve({ connection: res.headers.connection, keepAlive: String(res.headers['keep-alive']), socket: req.socket! }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.connection).toBe('keep-alive');
    expect(answer.keepAlive).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    expect(answer.socket.destroyed).toBe(false);
    // Shutdown does not wait out the idle connection: it is closed at once.
    const closedSocket = once(answer.socket, 'close');
    await server.booted.close();
    await closedSocket;
    expect(answer.socket.destroyed).toBe(true);
    await server.database.drop();
  });

  it('graceful shutdown: the app drains, the request in flight is answered, then the port closes', async () => {
    const server = await startTestServer();
    const { port } = server;
    // A request whose body is still arriving when shutdown begins.
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/api/page-hidden.php', method: 'POST', headers: { host: `localhost:${port}`, 'content-type': 'application/json', 'content-length': '2' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
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

  it.each(KINDS)('graceful shutdown (%s): a handler whose client hung up finishes before the database closes', async (kind) => {
    const logLines: string[] = [];
    const capture = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    const server = await startTestServer({ db: kind, log: createLogger('info', capture) });
    const { app } = server.booted;
    let databaseClosed = false;
    const closeApp = app.close.bind(app);
    app.close = async () => {
      databaseClosed = true;
      await closeApp();
    };
    // The landing page reads the site's settings from the database on every request here (SETTINGS_TTL_MS=0).
    // A transaction holding `sites` keeps that read waiting (PGlite: the one connection is taken; PostgreSQL:
    // the lock) until the test lets go.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const transaction = app.db.transaction(async (tx) => {
      await tx.execute(sql`lock table sites in access exclusive mode`);
      held();
      await released;
    });
    await holding;

    // A visitor asks for the page and hangs up while its handler waits on the database.
    const serverSide = new Promise<ServerResponse>((resolve) => server.booted.server.once('request', (_req, res) => resolve(res)));
    const client = request({ host: '127.0.0.1', port: server.port, path: '/', headers: { host: `localhost:${server.port}` } });
    client.on('error', () => {});
    client.end();
    const res = await serverSide;
    client.destroy();
    await once(res, 'close');

    // Shutdown: the port closes at once (no connection is left) ...
    const closing = server.booted.close();
    await once(server.booted.server, 'close');
    await new Promise((resolve) => setImmediate(resolve));
    // ... but the database stays open while the handler still needs it.
    expect(databaseClosed).toBe(false);
    release();
    await transaction;
    await closing;
    expect(databaseClosed).toBe(true);
    const errors = logLines.filter((line) => JSON.parse(line).level >= 50);
    expect(errors).toEqual([]);
    await server.database.drop();
  });
});
