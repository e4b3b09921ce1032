/**
 * updateSiteSettings (OPS-03) in one app context (PGlite, in-process bus) whose settings cache lives an
 * hour: a change shows at once because the bus drops the cached site, not because the TTL ran out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../tests/setup/kit';
import { companies, sites } from '../../db/schema';
import { loadConfig } from '../config';
import { createAppContext } from '../../runtime/app-context';
import type { AppContext } from '../app';
import { seedIfConfigured } from '../../demo/demo-seed';
import { createLogger } from '../logger';
import { updateSiteSettings } from './settings-update';

let app: AppContext;
let dir: string;
let siteId: number;
const events: Array<[string, number]> = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'settings-update-'));
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'memory://', DATA_DIR: dir, SEED_PROFILES_PER_SITE: '0', LOG_LEVEL: 'silent', SETTINGS_TTL_MS: '3600000' });
  app = await createAppContext({ config, log: createLogger('silent'), clock: new FakeClock() });
  await seedIfConfigured(app);
  siteId = (await app.sites.forHost('localhost')).settings.id;
  app.bus.subscribe('site.changed', ({ siteId: id }) => void events.push(['site.changed', id]));
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('updateSiteSettings', () => {
  it('OPS-03 a valid change is written, announced, and this process answers it at once despite an hour-long cache', async () => {
    const before = await app.sites.forHost('localhost');
    expect(before.settings.signup_credits).not.toBe(77);
    events.length = 0;
    const result = await updateSiteSettings(app, siteId, { settings: { signup_credits: 77, support_email: 'help@example.org' }, texts: { description: { de: 'Beschreibung' } } });
    expect(result).toEqual({ type: 'ok', siteIds: [siteId] });
    expect(events).toEqual([['site.changed', siteId]]);
    const after = await app.sites.forHost('localhost');
    expect(after.settings).toMatchObject({ signup_credits: 77, support_email: 'help@example.org' });
    expect(after.texts.description.de).toBe('Beschreibung');
    const [row] = await app.db.select({ signupCredits: sites.signupCredits }).from(sites).where(eq(sites.id, siteId));
    expect(row!.signupCredits).toBe(77);
  });

  it('OPS-03 a change that would not load is refused whole: nothing written, nothing announced', async () => {
    events.length = 0;
    const before = (await app.sites.forId(siteId)).settings;
    const refused = [
      { settings: { signup_credits: -1 } },
      { settings: { signup_credits: 5, support_email: 'not an address' } },
      { settings: { id: 99 } },
      { settings: { push_public_key: 'mine' } },
      { settings: { no_such_field: true } },
      { settings: { domain_language: 'xx' } },
      { settings: { min_age: 17 } },
      { texts: { description: { de: '   ' } } },
      { texts: { description: { xx: 'text' } } },
      { company: { delete_discount: 101 } },
    ];
    for (const patch of refused) {
      const result = await updateSiteSettings(app, siteId, patch as never);
      expect(result.type, JSON.stringify(patch)).toBe('invalid');
      if (result.type === 'invalid') expect(result.issues.length).toBeGreaterThan(0);
    }
    expect(await updateSiteSettings(app, 999_999, { settings: { name: 'Nobody' } })).toEqual({ type: 'not_found' });
    expect(events).toEqual([]);
    expect((await app.sites.forId(siteId)).settings).toEqual(before);
  });

  it('OPS-03 a company change reaches every site of that company', async () => {
    const site = await app.sites.forId(siteId);
    const siblings = (await app.db.select({ id: sites.id }).from(sites).where(eq(sites.companyId, site.settings.company_id))).map((s) => s.id).sort((a, b) => a - b);
    events.length = 0;
    const result = await updateSiteSettings(app, siteId, { company: { city: 'Zwolle' } });
    expect(result).toEqual({ type: 'ok', siteIds: siblings });
    expect(events.map(([, id]) => id).sort((a, b) => a - b)).toEqual(siblings);
    for (const id of siblings) expect((await app.sites.forId(id)).company.city).toBe('Zwolle');
    const [company] = await app.db.select({ city: companies.city }).from(companies).where(eq(companies.id, site.settings.company_id));
    expect(company!.city).toBe('Zwolle');
  });

  it('OPS-03 site.changed and site.content_changed drop that site’s shared answers (teasers), not other sites’', async () => {
    let loads = 0;
    const teaser = (id: number) => app.cache.get(`teaser:${id}`, 3_600_000, async () => ++loads);
    const first = await teaser(siteId);
    const other = await teaser(siteId + 1);
    expect(await teaser(siteId)).toBe(first);
    await app.bus.publish('site.content_changed', { siteId });
    const second = await teaser(siteId);
    expect(second).not.toBe(first);
    await app.bus.publish('site.changed', { siteId });
    expect(await teaser(siteId)).not.toBe(second);
    expect(await teaser(siteId + 1)).toBe(other);
  });
});
