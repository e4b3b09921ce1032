/**
 * The process's HTTP server around Astro's built handler: request ids and access logs, health checks,
 * static files, compression of the app's answers (brotli or gzip as the client accepts; see
 * compression.ts), and a graceful shutdown that drains connections before closing the database.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../server/app';
import { compressResponse } from './compression';
import { APP_PAGE_KEYS } from './page-keys';
import { RenderCache } from './render-cache';
import { guardRequest, installEdgeListeners, prepareResponse } from './request-guard';
import { EVENTS_PATH, serveEventStream } from '../server/web/events';
import { serveStatic } from './static-files';

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => Promise<void> | void;

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting, drains open requests and their handlers (up to the grace period), closes the database. */
  close(): Promise<void>;
}

/** The page shown when even the error page cannot be rendered (ERR-02). */
/**
 * How long an idle kept-alive connection stays open: longer than any balancer or proxy in front keeps
 * one idle (HAProxy's `timeout client`/`server` and nginx's `keepalive_timeout` are 60 s in the cluster's
 * and the usual configurations). A server that closes first races a balancer that reuses the connection
 * at that moment: the request meets a reset (seen as ECONNRESET in a test run with Node's 5 s default).
 * The `Keep-Alive: timeout=65` header tells clients the same.
 */
export const KEEP_ALIVE_MS = 65_000;

export const FALLBACK_ERROR_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Error</title></head>' +
  '<body style="font-family:system-ui,sans-serif;text-align:center;padding:3rem 1rem"><h1>Error</h1><p><a href="/">Go back to home</a></p></body></html>';

/**
 * Replaces the adapter's bare-text 500 ("Internal Server Error", sent when rendering the error page
 * itself failed) with the fallback page; every other answer passes untouched.
 */
export function withErrorFallback(res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (!res.headersSent && res.statusCode >= 500 && !res.hasHeader('content-type')) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.removeHeader('content-length');
      return end(FALLBACK_ERROR_HTML);
    }
    return end(...args);
  }) as ServerResponse['end'];
}

export async function startNodeServer(options: { app: AppContext; handler: AstroHandler; clientDir: string; host?: string; port?: number }): Promise<RunningServer> {
  const { app, handler, clientDir } = options;
  // Anonymous pages served again for a few seconds (PERF-01); dropped on the bus's site events.
  const renderCache = new RenderCache({
    ttlMs: app.config.RENDER_CACHE_TTL_MS,
    maxBytes: app.config.RENDER_CACHE_MAX_MB * 1024 * 1024,
    trustedProxies: app.config.trustedProxies,
    countryHeader: app.config.COUNTRY_HEADER,
    keys: APP_PAGE_KEYS,
  });
  const stopListening = renderCache.listen(app.bus);
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS, requestTimeout: 30_000 }, (req, res) => {
    const started = process.hrtime.bigint();
    const header = req.headers['x-request-id'];
    const requestId = typeof header === 'string' && /^[\w-]{8,64}$/.test(header) ? header : randomUUID();
    const log = app.log.child({ reqId: requestId });
    prepareResponse(res);
    res.setHeader('x-request-id', requestId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: query strings carry tokens and e-mail addresses (SEC-08).
      log.info({ method: req.method, url: (req.url ?? '/').split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    const handling = route(req, res, requestId, log).catch((err: unknown) => {
      log.error({ err }, 'request failed');
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(FALLBACK_ERROR_HTML);
      } else res.destroy();
    });
    // Kept until the handler is done, not the socket: a client that hangs up leaves its handler running.
    inFlight.add(handling);
    void handling.finally(() => inFlight.delete(handling));
  });
  /** The requests whose handlers have not finished; shutdown waits for them before closing the database. */
  const inFlight = new Set<Promise<void>>();

  installEdgeListeners(server); // parser errors and CONNECT: a proper status, the connection closed gently

  async function route(req: IncomingMessage, res: ServerResponse, requestId: string, log: AppContext['log']): Promise<void> {
    if (await guardRequest(req, res)) return; // methods, NUL bytes, body limits (SEC-03, SEC-04)
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      if (app.draining) return sendJson(res, 503, { status: 'draining' });
      try {
        await app.database.ping();
        return sendJson(res, 200, { status: 'ready', db: app.database.kind });
      } catch (err) {
        log.warn({ err }, 'readiness check failed');
        return sendJson(res, 503, { status: 'database_unavailable' });
      }
    }
    if (await serveStatic(clientDir, req, res)) return;
    // Live streams are served here, not through Astro: each stays open for hours (decision 047).
    if (path === EVENTS_PATH && req.method === 'GET') return serveEventStream(app, req, res);
    if (app.draining) res.setHeader('connection', 'close');
    if (renderCache.serve(req, res)) return;
    // HTML and JSON from the app, compressed when the client accepts it and the body is ≥ 1 kB.
    compressResponse(req, res);
    withErrorFallback(res);
    // 'close' follows 'finish' once the answer is out, or comes alone when the client went away.
    const responseDone = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const locals = { app, requestId, log, responseDone };
    renderCache.record(req, res, locals);
    await handler(req, res, undefined, locals);
  }

  const port = options.port ?? app.config.PORT;
  const host = options.host ?? app.config.HOST;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const url = `http://${shownHost}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      app.draining = true;
      stopListening();
      // Live streams never end by themselves: end them now, each with a retry hint (the browser reconnects elsewhere).
      app.streams.endAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = Date.now() + app.config.SHUTDOWN_GRACE_MS;
      const timer = setTimeout(() => server.closeAllConnections(), app.config.SHUTDOWN_GRACE_MS);
      await closed;
      clearTimeout(timer);
      // A connection can close (the client hung up) while its handler still reads or writes: the database
      // stays open until those handlers are done, within the same grace period.
      if (inFlight.size > 0) {
        let graceOver: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled([...inFlight]), new Promise<void>((resolve) => (graceOver = setTimeout(resolve, Math.max(0, deadline - Date.now()))))]);
        clearTimeout(graceOver);
      }
      await app.close();
    })();
    return closing;
  };
  return { server, url, close };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(JSON.stringify(body));
}
