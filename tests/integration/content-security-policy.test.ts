/**
 * The Content-Security-Policy of every page type over real HTTP (SEC-10, decision 015): one policy, in
 * the header; no `'unsafe-inline'` for scripts or styles; and every inline script and style the page
 * carries is allowed by a hash in it, so the browser runs what we wrote and nothing injected. Nothing
 * depends on the database kind here: PGlite only.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { users } from '../../src/db/schema';
import { LANDER_PATHS, STATIC_PATHS } from '../../src/server/web/seo';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const FREE = { email: 'free@demo.test', password: 'demo-password-1' };

/** The policy's directives by name (`script-src` → its sources). */
function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Inline elements the browser executes or applies: `<script>` without `src` (JSON data blocks are not run), `<style>`. */
function inlineBlocks(html: string): { scripts: string[]; styles: string[] } {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attrs]) => !/\bsrc=/i.test(attrs!))
    .filter(([, attrs]) => {
      const type = /\btype="([^"]*)"/i.exec(attrs!)?.[1]?.toLowerCase();
      return type === undefined || type === 'module' || type === 'text/javascript';
    })
    .map(([, , body]) => body!);
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map(([, body]) => body!);
  return { scripts, styles };
}

/** What is wrong with the policy of one answer; empty when nothing is. */
function policyProblems(res: { headers: Record<string, string | string[] | undefined>; text: string }): string[] {
  const problems: string[] = [];
  const header = res.headers['content-security-policy'];
  if (typeof header !== 'string') return [`expected one Content-Security-Policy header, got ${JSON.stringify(header)}`];
  if (/<meta[^>]+http-equiv=["']?content-security-policy/i.test(res.text)) problems.push('a second policy in a <meta> tag');
  const policy = directives(header);
  const scriptSrc = policy.get('script-src') ?? [];
  const styleSrc = policy.get('style-src') ?? [];
  if (scriptSrc.length === 0) problems.push('no script-src');
  for (const [name, sources] of policy) {
    if (sources.includes("'unsafe-inline'")) problems.push(`${name} allows 'unsafe-inline'`);
    if (sources.includes("'unsafe-eval'")) problems.push(`${name} allows 'unsafe-eval'`);
  }
  for (const required of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "form-action 'self'"]) {
    const [name, source] = required.split(' ');
    if (policy.get(name!)?.join(' ') !== source) problems.push(`expected ${required}, got ${name} ${policy.get(name!)?.join(' ')}`);
  }
  const { scripts, styles } = inlineBlocks(res.text);
  for (const script of scripts) if (!scriptSrc.includes(sha256(script))) problems.push(`inline script without its hash in script-src: ${script.slice(0, 80)}`);
  for (const style of styles) if (!styleSrc.includes(sha256(style))) problems.push(`inline <style> without its hash in style-src: ${style.slice(0, 80)}`);
  // Without 'unsafe-inline' (or 'unsafe-hashes') the browser ignores these: use a class, or an event listener in a script.
  for (const [attribute] of res.text.matchAll(/<[a-z][\w-]*\b[^>]*?\sstyle="[^"]*"/gi)) problems.push(`style attribute: ${attribute.slice(-80)}`);
  for (const [attribute] of res.text.matchAll(/<[a-z][\w-]*\b[^>]*?\son[a-z]+="[^"]*"/gi)) problems.push(`event handler attribute: ${attribute.slice(-80)}`);
  return problems;
}

describe('content security policy', () => {
  let server: TestServer;
  let session: string;
  let memberId: number;

  beforeAll(async () => {
    server = await startTestServer();
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: FREE });
    expect(login.status).toBe(200);
    session = login.setCookies.session!.value;
    // A member the public pages may show (HON-02): their member landings are visitor pages.
    const [shown] = await server.booted.app.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.siteId, 1), eq(users.status, 'active'), eq(users.publicProfile, true), eq(users.invisible, false)))
      .orderBy(users.id)
      .limit(1);
    memberId = shown!.id;
    expect(memberId).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("SEC-10 every visitor page type has one CSP header without 'unsafe-inline', with a hash for each inline script and style", async () => {
    const pages: Array<[path: string, status: number]> = [
      ...['/', ...LANDER_PATHS, ...STATIC_PATHS, '/login', '/signup', '/reset-password', '/lang-config', '/account-deleted', '/dev/mail'].map((path) => [path, 200] as [string, number]),
      ...['landing', 'landing2', 'landing3', 'signup'].map((kind) => [`/members/${memberId}/${kind}`, 200] as [string, number]),
      // Error pages: the 404 page, a link without its token, an activation error.
      ['/no/such/page', 404],
      ['/reset-password/do', 410],
      ['/activate/error', 400],
    ];
    const found: Record<string, string[]> = {};
    for (const [path, status] of pages) {
      // Once as a first visit (entry warning open), once accepted.
      for (const cookies of [{ lang: 'nl' }, { lang: 'en', entry_ok: '1' }] as Record<string, string>[]) {
        const res = await server.request(path, { cookies });
        expect(res.status, path).toBe(status);
        const problems = policyProblems(res);
        if (problems.length) found[`${path} ${JSON.stringify(cookies)}`] = problems;
      }
    }
    expect(found).toEqual({});
  });

  it("SEC-10 every member page type has one CSP header without 'unsafe-inline', with a hash for each inline script and style", async () => {
    const pages = ['/members', `/members/${memberId}`, '/profile', '/settings', '/notifications', '/complete-signup', '/signup-matches', '/settings/delete', '/premium', '/pricing'];
    const found: Record<string, string[]> = {};
    for (const path of pages) {
      const res = await server.request(path, { cookies: { session, lang: 'en', entry_ok: '1' } });
      expect(res.status, path).toBe(200);
      const problems = policyProblems(res);
      if (problems.length) found[path] = problems;
    }
    expect(found).toEqual({});
  });

  it('SEC-10 the check itself notices an unhashed inline script, a style attribute and unsafe-inline', () => {
    const policy = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'";
    const problems = policyProblems({ headers: { 'content-security-policy': policy }, text: '<p style="color:red">x</p><script>alert(1)</script><script type="application/json">{}</script>' });
    expect(problems).toEqual(["script-src allows 'unsafe-inline'", 'inline script without its hash in script-src: alert(1)', 'style attribute: <p style="color:red"']);
  });
});
