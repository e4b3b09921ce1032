/**
 * The gate of every /admin page (OPS-04): a signed-in staff member with one of the page's roles. No
 * session: to /admin/login (and back after it); the wrong role: 403. Pages do
 * `const staff = await requireStaff(Astro, ['moderator', 'admin']); if (staff instanceof Response) return staff;`
 */
import type { StaffRole } from '../../db/schema';
import type { RequestContext } from './request-context';
import { safeNext } from './session-cookie';
import type { StaffMember } from '../staff/accounts';
import { STAFF_COOKIE, staffForToken } from '../staff/sessions';

export type { StaffMember };

interface StaffPage {
  /** The request's cookies (Astro's `cookies` fits). */
  cookies: { get(name: string): { value: string } | undefined };
  locals: Pick<RequestContext, 'app'>;
  url: URL;
}

const cache = new WeakMap<object, Promise<(StaffMember & { sessionId: string }) | null>>();

/** The signed-in staff member of this request (read once per request), or null. */
export function currentStaff(page: StaffPage): Promise<(StaffMember & { sessionId: string }) | null> {
  let found = cache.get(page.locals);
  if (!found) {
    found = staffForToken(page.locals.app, page.cookies.get(STAFF_COOKIE)?.value);
    cache.set(page.locals, found);
  }
  return found;
}

export async function requireStaff(page: StaffPage, roles: readonly StaffRole[]): Promise<(StaffMember & { sessionId: string }) | Response> {
  const member = await currentStaff(page);
  if (!member) return new Response(null, { status: 303, headers: { location: `/admin/login?next=${encodeURIComponent(page.url.pathname + page.url.search)}` } });
  if (!roles.includes(member.role)) return new Response('Forbidden', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return member;
}

/**
 * Where the staff login sends its staff member (the `next` the gate above wrote): a same-site path under
 * /admin by the rule of every redirect target (SEC-02, `safeNext`), else /admin; never the login or the
 * logout again. A `next` with a CR/LF used to reach the Location header raw and answer 500 (SEC-19).
 */
export function staffNext(value: string | null | undefined): string {
  const next = safeNext(value, '/admin');
  return /^\/admin(?:[/?#]|$)/.test(next) && !/^\/admin\/log(?:in|out)(?:[/?#]|$)/.test(next) ? next : '/admin';
}
