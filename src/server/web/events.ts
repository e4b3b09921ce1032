/**
 * GET /api/events.php served by our node:http server itself, before Astro (CHT-08, issue 10's memory
 * goal; docs/decisions/047-live-stream-outside-astro.md). A live stream stays open for hours, and through
 * Astro each one kept its Request, its locals, Astro's render context and a wrapped response alive: about
 * 37 KB per open stream. Here a stream holds the socket, its node request and response, and the stream's
 * own state. The rules are the same as the Astro route's (src/pages/api/events.php.ts, still used by
 * `astro dev`): the site by host, the member by session cookie (loadSessionMember, the same query and
 * session rules as every page), JSON errors with the translated text, 503 while draining.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_ERRORS, type ApiErrorCode } from '../../shared/api-errors';
import { LANGUAGE_COOKIE } from '../../shared/languages';
import { createTranslator } from '../../i18n';
import { SESSION_COOKIE } from '../auth/sessions';
import type { AppContext } from '../app';
import { loadSessionMember } from '../session/lookup';
import { chooseLanguage } from './locale';
import { attachMemberStream, parseLastEventId } from '../session/stream';

export const EVENTS_PATH = '/api/events.php';

function cookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Answers a GET of /api/events.php. The caller checked method and path. */
export async function serveEventStream(app: AppContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { site } = await app.sites.resolveHost(req.headers.host ?? '');
  const cookies = req.headers.cookie;
  const fail = (code: ApiErrorCode) => {
    const t = createTranslator(chooseLanguage(cookie(cookies, LANGUAGE_COOKIE), site.settings).lang);
    res.writeHead(API_ERRORS[code], { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ error: code, message: String(t(`errors:${code}`)) }));
  };
  const token = cookie(cookies, SESSION_COOKIE);
  const member = token ? await loadSessionMember(app.db, app.clock, token, site.settings.id) : null;
  if (!member) return fail('authentication_required');
  if (app.draining) return fail('service_unavailable');

  const url = new URL(req.url ?? '/', 'http://localhost');
  const header = req.headers['last-event-id'];
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  // The stream writes straight into the response; a slow reader's backlog stays in the socket's buffer,
  // and the client going away ends the stream.
  const stop = attachMemberStream(
    { app, member: { siteId: site.settings.id, userId: member.user.id }, lastEventId: parseLastEventId((typeof header === 'string' ? header : null) ?? url.searchParams.get('last')) },
    {
      write: (text) => {
        if (!res.writableEnded && !res.destroyed) res.write(text);
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    },
  );
  res.once('close', stop);
}
