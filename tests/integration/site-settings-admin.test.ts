/**
 * Site settings and company info in the back office over HTTP (issue 12, OPS-03): admins only; a change
 * passes the load schemas or nothing is written; what changed is audited; the site answers with the new
 * settings at once; fields a form does not send stay as they are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, totpCode } from '../../src/server/staff/accounts';
import { readAudit } from '../../src/server/audit';
import { DEMO_STAFF_PASSWORD, DEMO_TOTP_SECRET } from '../../src/demo/staff';
import { COMPANY_KINDS, SETTING_KINDS, fieldText } from '../../src/server/staff/site-settings-form';
import { startTestServer, type TestServer } from '../setup/server';

describe('site settings in the back office', () => {
  let server: TestServer;
  let admin = '';
  let operator = '';

  beforeAll(async () => {
    server = await startTestServer();
    const login = async (email: string, role: 'admin' | 'operator') => {
      await createStaff(server.booted.app, { email, name: email.split('@')[0]!, role, password: DEMO_STAFF_PASSWORD, totpSecret: DEMO_TOTP_SECRET });
      const res = await server.request('/admin/login', {
        method: 'POST',
        cookies: { lang: 'en' },
        headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password: DEMO_STAFF_PASSWORD, code: totpCode(DEMO_TOTP_SECRET, new Date()) }).toString(),
      });
      return res.setCookies.staff_session!.value;
    };
    admin = await login('sites-admin@ops.test', 'admin');
    operator = await login('sites-operator@ops.test', 'operator');
  });
  afterAll(async () => {
    await server?.close();
  });

  const page = (cookie: string, path: string) => server.request(path, { cookies: { lang: 'en', staff_session: cookie } });
  const save = (cookie: string, path: string, fields: [string, string][]) =>
    server.request(path, {
      method: 'POST',
      cookies: { lang: 'en', staff_session: cookie },
      headers: { origin: `http://localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  /** The whole form as the page fills it, with `changes` applied. */
  const wholeForm = async (changes: Record<string, string>): Promise<[string, string][]> => {
    const site = await server.booted.app.sites.forId(1);
    const fields: [string, string][] = [];
    for (const [key, kind] of Object.entries(SETTING_KINDS)) fields.push([`settings.${key}`, fieldText(kind, (site.settings as unknown as Record<string, unknown>)[key])]);
    for (const [key, kind] of Object.entries(COMPANY_KINDS)) fields.push([`company.${key}`, fieldText(kind, (site.company as unknown as Record<string, unknown>)[key])]);
    return fields.map(([k, v]) => [k, changes[k] ?? (v === '' && SETTING_KINDS[k.slice(9) as keyof typeof SETTING_KINDS]?.type === 'checkbox' ? '0' : v)]);
  };
  const siteSettings = async () => (await server.request('/api/settings.php', { headers: { 'x-requested-with': 'XMLHttpRequest' } })).json();

  it('OPS-03 only admins open the sites; the form shows every setting and the company', async () => {
    expect((await page(operator, '/admin/sites')).status).toBe(403);
    expect((await page(operator, '/admin/sites/1')).status).toBe(403);
    const list = await page(admin, '/admin/sites');
    expect(list.text).toContain('data-site="1"');
    const form = await page(admin, '/admin/sites/1');
    expect(form.status).toBe(200);
    for (const key of Object.keys(SETTING_KINDS)) expect(form.text).toContain(`name="settings.${key}"`);
    for (const key of Object.keys(COMPANY_KINDS)) expect(form.text).toContain(`name="company.${key}"`);
    expect((await page(admin, '/admin/sites/999')).status).toBe(404);
  });

  it('OPS-03 a valid change is saved, audited and in use at once; an invalid one changes nothing', async () => {
    const before = await siteSettings();
    expect(before.message_credits).not.toBe(17);
    const ok = await save(admin, '/admin/sites/1', await wholeForm({ 'settings.message_credits': '17', 'settings.live_cam_promo': before.live_cam_promo ? '0' : '1' }));
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/admin/sites/1?done=saved');
    const after = await siteSettings();
    expect(after.message_credits).toBe(17);
    expect(after.live_cam_promo).toBe(!before.live_cam_promo);
    expect(after.name).toBe(before.name);
    const [entry] = await readAudit(server.booted.app.db, { target: { type: 'site', id: '1' } });
    expect(entry).toMatchObject({ action: 'site.settings', before: { 'settings.message_credits': before.message_credits }, after: { 'settings.message_credits': 17 } });

    for (const [field, value, text] of [
      ['settings.support_email', 'not-an-email', 'Not accepted'],
      ['settings.message_credits', 'abc', 'Enter a whole number'],
      ['settings.minimum_message_costs', '{broken', 'This is not valid JSON'],
      ['settings.domain_language', 'xx', 'Not accepted'],
      ['company.delete_discount', '150', 'Not accepted'],
    ] as const) {
      const refused = await save(admin, '/admin/sites/1', await wholeForm({ [field]: value, 'settings.name': 'Should not be saved' }));
      expect(refused.status, field).toBe(400);
      expect(refused.text, field).toContain(`data-field-error="${field}"`);
      expect(refused.text, field).toContain(text);
      expect((await siteSettings()).name, field).toBe(before.name);
    }
  });

  it('OPS-03 fields the form does not send are left alone; sending nothing new changes nothing', async () => {
    const before = await siteSettings();
    expect((await save(admin, '/admin/sites/1', [['settings.photo_credits', String(before.photo_credits + 1)]])).headers.location).toBe('/admin/sites/1?done=saved');
    const after = await siteSettings();
    expect(after.photo_credits).toBe(before.photo_credits + 1);
    expect({ ...after, photo_credits: before.photo_credits }).toEqual(before);
    expect((await save(admin, '/admin/sites/1', await wholeForm({}))).headers.location).toBe('/admin/sites/1?done=unchanged');
  });
});
