/**
 * The `/members` search page and its JSON twin `GET /api/members.php` over HTTP (MEM-01, MEM-02,
 * MEM-05), with the places endpoints (MEM-07, MEM-08). One server for the file; tests that change the
 * database put it back.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, profiles, regions, sites, users } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../setup/server';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const BOTH = 'gender=male&gender=female';

/** Member ids of the cards on a page of HTML (the result grid and the similar grid). */
const cardIds = (html: string): number[] => [...html.matchAll(/data-member-id="(\d+)"/g)].map((m) => Number(m[1]));
const loadMoreHref = (html: string): string | null => /<a[^>]*href="([^"]+)"[^>]*data-load-more/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? null;

describe('members search page', () => {
  let server: TestServer;
  let session: string;
  let freeId: number;
  const en = () => ({ lang: 'en', entry_ok: '1' });
  const member = () => ({ ...en(), session });

  beforeAll(async () => {
    server = await startTestServer({ env: { SEED_PROFILES_PER_SITE: '60' } });
    const login = await server.request('/api/user.php', { method: 'POST', headers: XHR, body: { email: 'free@demo.test', password: 'demo-password-1' } });
    session = login.setCookies.session!.value;
    freeId = login.json().id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Every member id the API lists to the member for `query`, walking all pages. */
  async function allPages(query: string, cookies: Record<string, string> = member(), host?: string): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const res = await server.request(`/api/members.php?${query}${cursor ? `&cursor=${cursor}` : ''}`, { cookies, host });
      expect(res.status).toBe(200);
      const body = res.json();
      ids.push(...body.cards.map((c: { id: number }) => c.id));
      cursor = body.next;
      if (!cursor) break;
    }
    return ids;
  }

  it('MEM-01 the page renders the filters from the member’s looking-for and region, and cards that fit them', async () => {
    const { db } = server.booted.app;
    const [me] = await db.select().from(profiles).where(eq(profiles.userId, freeId));
    const page = await server.request('/members', { cookies: member() });
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/members" method="get"');
    expect(page.text).toMatch(/<label[^>]*for="search-min-age"[^>]*>Minimum age<\/label>/);
    const wanted = me!.gender === 'male' ? 'female' : 'male';
    expect(page.text).toMatch(new RegExp(`id="search-gender-${wanted}"[^>]*checked`));
    expect(page.text).toMatch(new RegExp(`<option value="${me!.regionId}" selected`));
    const ids = cardIds(page.text);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain(freeId);
    // The API with the same (default) filters lists the same first cards in the same order.
    const api = (await server.request('/api/members.php', { cookies: member() })).json();
    expect(api.filters.region).toBe(me!.regionId);
    expect(ids.slice(0, api.cards.length)).toEqual(api.cards.map((c: { id: number }) => c.id));
    // The saved age range comes with the member's session: a change shows on the next page.
    await db.update(profiles).set({ searchMinAge: 31, searchMaxAge: 44 }).where(eq(profiles.userId, freeId));
    try {
      const saved = await server.request('/members', { cookies: member() });
      expect(saved.text).toMatch(/id="search-min-age"[^>]*value="31"/);
      expect(saved.text).toMatch(/id="search-max-age"[^>]*value="44"/);
    } finally {
      await db.update(profiles).set({ searchMinAge: me!.searchMinAge, searchMaxAge: me!.searchMaxAge }).where(eq(profiles.userId, freeId));
    }
  });

  it('MEM-01 explicit filters narrow the cards; few results come with similar ones and a sentence saying so', async () => {
    const { db } = server.booted.app;
    const res = await server.request(`/members?gender=female&country=NL&minAge=30&maxAge=31`, { cookies: member() });
    expect(res.status).toBe(200);
    const api = (await server.request(`/api/members.php?gender=female&country=NL&minAge=30&maxAge=31`, { cookies: member() })).json();
    const rows = api.cards.length
      ? await db
          .select()
          .from(profiles)
          .where(
            inArray(
              profiles.userId,
              api.cards.map((c: { id: number }) => c.id),
            ),
          )
      : [];
    for (const r of rows) expect([r.gender, r.country]).toEqual(['female', 'NL']);
    for (const c of api.cards) expect(c.age === 30 || c.age === 31).toBe(true);
    expect(api.similar).not.toBeNull();
    expect(res.text).toContain('data-similar="age');
    expect(res.text).toContain('Few members match your filters, so below are similar members');
  });

  it('MEM-01 paging: the next-page link carries the cursor and works without JavaScript; pages never repeat a member', async () => {
    const first = await server.request(`/members?${BOTH}`, { cookies: member() });
    const href = loadMoreHref(first.text);
    expect(href).toMatch(/^\/members\?gender=male&gender=female.*&cursor=[\w-]+$/);
    const second = await server.request(href!, { cookies: member() });
    expect(second.status).toBe(200);
    const a = cardIds(first.text);
    const b = cardIds(second.text);
    expect(a).toHaveLength(24);
    expect(b.length).toBeGreaterThan(0);
    expect(b.filter((id) => a.includes(id))).toEqual([]);
    expect(second.text).toContain('Back to the first page');
    const all = await allPages(BOTH);
    expect(all.slice(0, 24 + b.length)).toEqual([...a, ...b]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('UX-02 pages=N renders the first N pages at once (what the list showed before a profile was opened), with the cursor after them', async () => {
    const all = await allPages(BOTH);
    expect(all.length).toBeGreaterThan(48);
    const back = await server.request(`/members?${BOTH}&pages=2`, { cookies: member() });
    expect(back.status).toBe(200);
    expect(cardIds(back.text).slice(0, 48)).toEqual(all.slice(0, 48));
    expect(cardIds(back.text)).toHaveLength(48);
    // 'More members' goes on after the second page, and the island knows it shows two.
    const next = await server.request(loadMoreHref(back.text)!, { cookies: member() });
    expect(cardIds(next.text)[0]).toBe(all[48]);
    expect(back.text).toMatch(/pages[\\]*&quot;:2[,}]/);
    const api = await server.request(`/api/members.php?${BOTH}&pages=2`, { cookies: member() });
    expect(api.json().cards.map((c: { id: number }) => c.id)).toEqual(all.slice(0, 48));
    // A bad count is the filters' 400, never a 500.
    for (const bad of ['0', '11', 'abc', '1.5', '9'.repeat(40)]) {
      expect((await server.request(`/members?${BOTH}&pages=${bad}`, { cookies: member() })).status, bad).toBe(400);
      const res = await server.request(`/api/members.php?${BOTH}&pages=${bad}`, { cookies: member() });
      expect(res.status, bad).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
  });

  it('MEM-05 every fictional profile’s card carries the site’s fictional label', async () => {
    const { db } = server.booted.app;
    const page = await server.request(`/members?${BOTH}`, { cookies: member() });
    const ids = cardIds(page.text);
    const fictional = await db
      .select({ id: profiles.userId })
      .from(profiles)
      .where(and(inArray(profiles.userId, ids), eq(profiles.fictional, true)));
    expect(fictional.length).toBeGreaterThan(0);
    for (const { id } of fictional) {
      const li = new RegExp(`<li class="member-card" data-member-id="${id}">[\\s\\S]*?</li>`).exec(page.text)![0];
      expect(li).toContain('data-fictional');
      expect(li).toMatch(/<span class="member-mark member-mark-fictional fictional-label" title="[^"]+" data-fictional="true">fictional profile<\/span>/);
    }
    const real = ids.filter((id) => !fictional.some((f) => f.id === id));
    for (const id of real) expect(new RegExp(`<li class="member-card" data-member-id="${id}">[\\s\\S]*?</li>`).exec(page.text)![0]).not.toContain('data-fictional');
  });

  it('MEM-01 another site’s members are never listed, on either site', async () => {
    const { db } = server.booted.app;
    const site2 = (await db.select({ id: users.id }).from(users).where(eq(users.siteId, 2))).map((r) => r.id);
    const site1 = (await db.select({ id: users.id }).from(users).where(eq(users.siteId, 1))).map((r) => r.id);
    const listed1 = await allPages(BOTH);
    expect(listed1.length).toBeGreaterThan(24);
    expect(listed1.filter((id) => site2.includes(id))).toEqual([]);
    await db.update(sites).set({ loggedOutSearch: true }).where(eq(sites.id, 2));
    try {
      const listed2 = await allPages(BOTH, en(), '127.0.0.1');
      expect(listed2.length).toBeGreaterThan(0);
      expect(listed2.filter((id) => site1.includes(id))).toEqual([]);
    } finally {
      await db.update(sites).set({ loggedOutSearch: false }).where(eq(sites.id, 2));
    }
    // A region of site 2's countries is unknown on site 1's search (its country is not one of them).
    const [de] = await db.select({ id: regions.id }).from(regions).where(eq(regions.country, 'DE')).limit(1);
    const cross = await server.request(`/api/members.php?${BOTH}&country=DE&region=${de!.id}`, { cookies: member() });
    expect(cross.json().cards).toEqual([]);
  });

  it('BLK-01 MEM-01 blocked members (either way) and invisible members are never listed', async () => {
    const { db } = server.booted.app;
    const before = await allPages(BOTH);
    const [x, y, z] = before;
    await db.update(users).set({ invisible: true }).where(eq(users.id, x!));
    await db.insert(blocks).values([
      { blockerId: freeId, blockedId: y! },
      { blockerId: z!, blockedId: freeId },
    ]);
    try {
      const after = await allPages(BOTH);
      expect(after).not.toContain(x);
      expect(after).not.toContain(y);
      expect(after).not.toContain(z);
      expect(after.length).toBe(before.length - 3);
      const page = cardIds((await server.request(`/members?${BOTH}`, { cookies: member() })).text);
      expect(page.filter((id) => id === x || id === y || id === z)).toEqual([]);
    } finally {
      await db.update(users).set({ invisible: false }).where(eq(users.id, x!));
      await db.delete(blocks).where(inArray(blocks.blockerId, [freeId, z!]));
    }
  });

  it('MEM-02 visitors search only as logged_out_search or, with a tracking record, logged_out_search_trafficsource allow', async () => {
    const { db } = server.booted.app;
    const setSite = (loggedOutSearch: boolean, loggedOutSearchTrafficsource: boolean) => db.update(sites).set({ loggedOutSearch, loggedOutSearchTrafficsource }).where(eq(sites.id, 1));
    const tracking = JSON.stringify({ network: 'ads', ref: 'r1' });
    try {
      await setSite(true, false);
      expect((await server.request('/members', { cookies: en() })).status).toBe(200);
      expect((await server.request(`/api/members.php?${BOTH}`, { cookies: en() })).status).toBe(200);

      await setSite(false, false);
      const refused = await server.request(`/members?${BOTH}`, { cookies: { ...en(), tracking } });
      expect(refused.status).toBe(302);
      expect(refused.headers.location).toBe(`/login?next=${encodeURIComponent(`/members?${BOTH}`)}`);
      const api = await server.request('/api/members.php', { cookies: en() });
      expect([api.status, api.json().error]).toEqual([403, 'authentication_required']);
      expect((await server.request('/members', { cookies: member() })).status).toBe(200);

      await setSite(false, true);
      expect((await server.request('/members', { cookies: en() })).status).toBe(302);
      expect((await server.request('/members', { cookies: { ...en(), tracking } })).status).toBe(200);
      expect((await server.request('/members?network=ads&ref=r2', { cookies: en() })).status).toBe(200);
      expect((await server.request('/api/members.php', { cookies: { ...en(), tracking } })).status).toBe(200);
      expect((await server.request('/api/members.php', { cookies: en() })).status).toBe(403);
    } finally {
      await setSite(true, false);
    }
  });

  it('MEM-01 bad filters: the page says what is wrong with status 400, the API answers 400 JSON with a stable code', async () => {
    const { db } = server.booted.app;
    const [nl] = await db.select({ id: regions.id }).from(regions).where(eq(regions.country, 'NL')).limit(1);
    const cases: Array<[string, string, string]> = [
      ['minAge=-1', 'invalid_age_range', 'Ages must be whole numbers from 18 to 99'],
      ['minAge=40&maxAge=30', 'invalid_age_range', 'Ages must be whole numbers'],
      ['maxAge=abc', 'invalid_age_range', 'Ages must be whole numbers'],
      ['country=ZZ', 'unknown_country', 'This country is not known.'],
      [`country=${'x'.repeat(10_000)}`, 'unknown_country', 'This country is not known.'],
      [`gender=${'x'.repeat(10_000)}`, 'invalid_gender', 'Choose men, women or both.'],
      ['region=999999', 'unknown_region', 'This region is not known in the chosen country.'],
      [`country=BE&region=${nl!.id}`, 'unknown_region', 'This region is not known'],
      ['cursor=abc', 'invalid_cursor', 'This page of results no longer exists.'],
      [`cursor=${'a'.repeat(10_000)}`, 'invalid_cursor', 'This page of results no longer exists.'],
    ];
    for (const [query, code, text] of cases) {
      const page = await server.request(`/members?${query}`, { cookies: member() });
      expect(page.status, query).toBe(400);
      expect(page.text, query).toContain('These search filters cannot be used');
      expect(page.text, query).toContain(text);
      expect(page.text, query).toContain('action="/members" method="get"');
      const api = await server.request(`/api/members.php?${query}`, { cookies: member() });
      expect(api.status, query).toBe(400);
      expect(api.json(), query).toMatchObject({ error: code });
      expect(typeof api.json().message).toBe('string');
    }
    // In Dutch too (the main language).
    const nlPage = await server.request('/members?minAge=40&maxAge=30', { cookies: { lang: 'nl', entry_ok: '1', session } });
    expect(nlPage.text).toContain('Met deze zoekfilters kan niet gezocht worden');
    expect((await server.request('/api/members.php', { method: 'POST', cookies: member(), body: {} })).status).toBe(405);
  });

  it('MEM-07 regions.php lists the site’s regions per country and interests.php the interest keys, both with long client caching', async () => {
    const res = await server.request('/api/regions.php');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const { countries } = res.json();
    expect(countries.map((c: { code: string }) => c.code)).toEqual(['NL', 'BE']);
    expect(countries[0].regions.map((r: { name: string }) => r.name)).toContain('Utrecht');
    const de = (await server.request('/api/regions.php', { host: '127.0.0.1' })).json();
    expect(de.countries.map((c: { code: string }) => c.code)).toEqual(['DE', 'AT', 'CH']);
    const interests = await server.request('/api/interests.php');
    expect(interests.headers['cache-control']).toBe('public, max-age=604800');
    expect(interests.json().interests).toHaveLength(50);
    expect(interests.json().interests).toContain('travelling');
  });

  it('MEM-08 geocode.php gives the nearest region of the site’s countries from the centroids; bad coordinates are 400 JSON', async () => {
    const utrecht = await server.request('/api/geocode.php?lat=52.0907&lon=5.1214');
    expect(utrecht.status).toBe(200);
    expect(utrecht.headers['cache-control']).toBe('private, max-age=3600');
    expect(utrecht.json()).toMatchObject({ country: 'NL', region: { name: 'Utrecht', code: 'UT' } });
    // Berlin is far from every Dutch and Belgian region, but in site 2's Germany.
    expect((await server.request('/api/geocode.php?lat=52.52&lon=13.405')).json()).toEqual({ country: null, region: null, distanceKm: null });
    expect((await server.request('/api/geocode.php?lat=52.52&lon=13.405', { host: '127.0.0.1' })).json()).toMatchObject({ country: 'DE', region: { code: 'BE' } });
    for (const q of ['lat=91&lon=5', 'lat=52&lon=181', 'lat=abc&lon=5', 'lat=52', '', `lat=${'1'.repeat(10_000)}&lon=5`, 'lat=NaN&lon=Infinity', 'lat=1e3&lon=5']) {
      const bad = await server.request(`/api/geocode.php?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.json().error, q).toBe('invalid_coordinates');
    }
  });
});
