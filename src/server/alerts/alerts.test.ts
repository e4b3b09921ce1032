/** Alert rules (pure), dismissals and the activation-mail rate limit against a real database. */
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seededDatabase, type SeededDatabase } from '../../../tests/setup/kit';
import { type Database } from '../../db/client';
import { users } from '../../db/schema';
import { activate } from '../accounts/activation';
import { signup } from '../accounts/signup';
import { Mailer } from '../mail/mailer';
import { SiteDirectory, type Site } from '../sites/directory';
import { ACTIVATION_RESEND_INTERVAL_MS, resendActivationMail } from './activation-reminder';
import { dismissAlert, loadDismissals } from './dismissals';
import { isDismissed, planAlerts, routeFromPath, type AlertInput } from './rules';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = 24 * 3600 * 1000;
const photo = { filename: 'a.webp', thumb_filename: 'a-t.webp', status: 'active' as const };

function input(over: { user?: Partial<AlertInput['user']>; profile?: Partial<AlertInput['user']['profile']> } & Partial<Omit<AlertInput, 'user'>> = {}): AlertInput {
  const { user, profile, ...rest } = over;
  return {
    user: { status: 'active', notifications_disabled: [], ...user, profile: { status: 'active', main_image: photo, ...profile } },
    route: null,
    dismissals: {},
    now: NOW,
    signupComplete: false,
    ...rest,
  };
}

describe('alert rules', () => {
  it('ALR-01 the photo alert shows for a member without a main image, not on profile, signup, activate-done, premium, notifications, directdebit, settings', () => {
    expect(planAlerts(input()).photo).toBe(false);
    expect(planAlerts(input({ profile: { main_image: null } })).photo).toBe(true);
    expect(planAlerts(input({ profile: { main_image: null }, route: 'members' })).photo).toBe(true);
    for (const route of ['profile', 'signup', 'activate-done', 'premium', 'notifications', 'directdebit', 'settings']) {
      expect(planAlerts(input({ profile: { main_image: null }, route })).photo, route).toBe(false);
    }
  });

  it('ALR-01 visitors get no alerts', () => {
    expect(planAlerts(null)).toEqual({ photo: false, push: false, notificationsDisabled: false, activation: 'none' });
  });

  it('ALR-02 the push alert may show except on signup, notifications, activate-done, directdebit and premium', () => {
    expect(planAlerts(input()).push).toBe(true);
    expect(planAlerts(input({ route: 'settings' })).push).toBe(true);
    expect(planAlerts(input({ route: 'profile' })).push).toBe(true);
    for (const route of ['signup', 'notifications', 'activate-done', 'directdebit', 'premium']) expect(planAlerts(input({ route })).push, route).toBe(false);
  });

  it('ALR-03 the disabled-notifications alert shows when the list is not empty, not on settings and notifications', () => {
    expect(planAlerts(input()).notificationsDisabled).toBe(false);
    expect(planAlerts(input({ user: { notifications_disabled: ['news'] } })).notificationsDisabled).toBe(true);
    expect(planAlerts(input({ user: { notifications_disabled: ['news'] }, route: 'settings' })).notificationsDisabled).toBe(false);
    expect(planAlerts(input({ user: { notifications_disabled: ['news'] }, route: 'notifications' })).notificationsDisabled).toBe(false);
    expect(planAlerts(input({ user: { notifications_disabled: ['news'] }, route: 'profile' })).notificationsDisabled).toBe(true);
  });

  it('ALR-04 enrich and push stay dismissed for 7 days, then come back', () => {
    const dismissals = { enrich: new Date(NOW.getTime() - 6 * DAY).toISOString(), push: new Date(NOW.getTime() - 8 * DAY).toISOString() };
    const plan = planAlerts(input({ profile: { main_image: null }, dismissals }));
    expect(plan.photo).toBe(false);
    expect(plan.push).toBe(true);
    expect(isDismissed(dismissals, 'enrich', new Date(NOW.getTime() + 2 * DAY))).toBe(false);
    expect(isDismissed({ enrich: 'not a date' }, 'enrich', NOW)).toBe(false);
  });

  it('ALR-04 the disabled-notifications alert stays dismissed until the list changes', () => {
    const dismissals = { notifications_disabled: NOW.toISOString(), notifications_disabled_list: 'news,promotions' };
    expect(planAlerts(input({ user: { notifications_disabled: ['promotions', 'news'] }, dismissals })).notificationsDisabled).toBe(false);
    expect(planAlerts(input({ user: { notifications_disabled: ['promotions', 'news'] }, dismissals, now: new Date(NOW.getTime() + 365 * DAY) })).notificationsDisabled).toBe(false);
    expect(planAlerts(input({ user: { notifications_disabled: ['news', 'promotions', 'new_messages'] }, dismissals })).notificationsDisabled).toBe(true);
  });

  it('ALR-04 a time-bonus dismissal is for good', () => {
    expect(isDismissed({ time_bonus: NOW.toISOString() }, 'time_bonus', new Date(NOW.getTime() + 100 * DAY))).toBe(true);
    expect(isDismissed({}, 'time_bonus', NOW)).toBe(false);
  });

  it('ACT-02 the activation reminder: unconfirmed, profile disabled, no disabled notifications; a modal with api_signup_complete', () => {
    const pending = { user: { status: 'not_confirmed' as const }, profile: { status: 'disabled' as const } };
    expect(planAlerts(input(pending)).activation).toBe('alert');
    expect(planAlerts(input({ ...pending, signupComplete: true })).activation).toBe('modal');
    expect(planAlerts(input({ ...pending, user: { status: 'not_confirmed', notifications_disabled: ['news'] } })).activation).toBe('none');
    expect(planAlerts(input({ user: { status: 'active' }, profile: { status: 'disabled' } })).activation).toBe('none');
    expect(planAlerts(input({ user: { status: 'not_confirmed' }, profile: { status: 'active' } })).activation).toBe('none');
    for (const route of ['signup', 'settings', 'notifications']) {
      expect(planAlerts(input({ ...pending, route })).activation, route).toBe('none');
      expect(planAlerts(input({ ...pending, route, signupComplete: true })).activation, route).toBe('none');
    }
  });

  it('ALR-01 pages that pass no route are recognised by their path where it is a named route', () => {
    expect(routeFromPath('/profile')).toBe('profile');
    expect(routeFromPath('/profile/')).toBe('profile');
    expect(routeFromPath('/activate/done')).toBe('activate-done');
    expect(routeFromPath('/directdebit')).toBe('directdebit');
    expect(routeFromPath('/members')).toBeNull();
    expect(routeFromPath('/')).toBeNull();
  });
});

describe('with a database', () => {
  let database: Database;
  let kit: SeededDatabase;
  let site: Site;
  const clock = new FakeClock(NOW);

  beforeAll(async () => {
    kit = await seededDatabase({ clock: clock, profilesPerSite: 2 });
    database = kit.database;
    site = await new SiteDirectory(database.db, clock, 0).forHost('localhost');
  });
  afterAll(() => kit?.close());

  const newMember = async (email: string) => {
    const result = await signup(
      { db: database.db, clock, settings: site.settings, language: 'en', country: 'NL', tracking: null },
      { email, name: 'Iris', password: 'zonnige-dinsdag-42', date_of_birth: '1994-02-03', gender: 'female', looking_for: 'male' },
    );
    if (result.type !== 'ok') throw new Error(JSON.stringify(result));
    return result.userId;
  };

  it('ALR-04 a dismissal stores its time per alert and keeps the others', async () => {
    const id = await newMember('dismiss@example.com');
    await dismissAlert(database.db, id, 'enrich', NOW);
    const later = new Date(NOW.getTime() + 1000);
    await Promise.all([dismissAlert(database.db, id, 'push', later), dismissAlert(database.db, id, 'time_bonus', later)]);
    expect(await loadDismissals(database.db, id)).toEqual({ enrich: NOW.toISOString(), push: later.toISOString(), time_bonus: later.toISOString() });
  });

  it('ALR-04 dismissing the disabled-notifications alert remembers the list it was dismissed for', async () => {
    const id = await newMember('list@example.com');
    await database.db
      .update(users)
      .set({ notificationsDisabled: ['promotions', 'news', 'like_received'] })
      .where(eq(users.id, id));
    const dismissals = await dismissAlert(database.db, id, 'notifications_disabled', NOW);
    expect(dismissals).toEqual({ notifications_disabled: NOW.toISOString(), notifications_disabled_list: 'like_received,news,promotions' });
    expect(isDismissed(dismissals, 'notifications_disabled', NOW, ['news', 'promotions', 'like_received'])).toBe(true);
    expect(isDismissed(dismissals, 'notifications_disabled', NOW, ['news'])).toBe(false);
  });

  it('ACT-02 the activation mail can be sent again at most once per 10 minutes, counting the last one sent', async () => {
    const mailer = new Mailer(database.db, pino({ level: 'silent' }));
    const deps = { db: database.db, clock, mailer };
    const id = await newMember('resend@example.com');
    const sent = async () => (await mailer.recent(50, 'resend@example.com')).filter((m) => m.kind === 'activation').length;
    expect(await resendActivationMail(deps, site, id, 'http://localhost')).toEqual({ type: 'ok' });
    expect(await sent()).toBe(1);
    clock.time += 4 * 60 * 1000;
    expect(await resendActivationMail(deps, site, id, 'http://localhost')).toEqual({ type: 'error', reason: 'too_soon', minutes: 6 });
    expect(await sent()).toBe(1);
    clock.time += ACTIVATION_RESEND_INTERVAL_MS;
    // Two requests at once: one mail.
    const results = await Promise.all([resendActivationMail(deps, site, id, 'http://localhost'), resendActivationMail(deps, site, id, 'http://localhost')]);
    expect(results.filter((r) => r.type === 'ok')).toHaveLength(1);
    expect(await sent()).toBe(2);
  });

  it('ACT-02 a confirmed member gets no activation mail', async () => {
    const mailer = new Mailer(database.db, pino({ level: 'silent' }));
    const id = await newMember('confirmed@example.com');
    clock.time += ACTIVATION_RESEND_INTERVAL_MS;
    expect(await resendActivationMail({ db: database.db, clock, mailer }, site, id, 'http://localhost')).toEqual({ type: 'ok' });
    const token = /token=([\w-]+)/.exec((await mailer.recent(1, 'confirmed@example.com'))[0]!.text)![1]!;
    expect((await activate({ db: database.db, clock }, token)).type).toBe('ok');
    clock.time += ACTIVATION_RESEND_INTERVAL_MS;
    expect(await resendActivationMail({ db: database.db, clock, mailer }, site, id, 'http://localhost')).toEqual({ type: 'error', reason: 'already_confirmed' });
  });
});
