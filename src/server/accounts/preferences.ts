/**
 * The settings screen's services (SET-01, SET-02, AUTH-04): password change, invisible mode and the
 * eight notification preferences, stored as the list of disabled ones (`users.notifications_disabled`).
 * Checks of the current password are throttled per member (5 wrong in 15 minutes block them for 15
 * minutes), so a borrowed session cannot be used to guess the password.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { revokeUserSessions } from '../auth/sessions';
import { ACCOUNT_RULE, clearFailures, takeTry } from '../auth/throttle';
import type { Clock } from '../clock';
import type { EventBus } from '../realtime/bus';
import { checkPassword, type PasswordProblem } from './rules';

type Deps = { db: Db; clock: Clock };

/** SET-02: the notification preferences, in the order the screen shows them. */
export const NOTIFICATION_KEYS = ['new_conversations', 'new_messages', 'like_received', 'unread_message_reminders', 'promotions', 'weekly_updates', 'news', 'reminders'] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

export function isNotificationKey(value: string): value is NotificationKey {
  return (NOTIFICATION_KEYS as readonly string[]).includes(value);
}

/** Throttle key of current-password checks on the settings screen (separate from login failures). */
export const passwordCheckKey = (userId: number) => `pwcheck:${userId}`;

export type PasswordCheck = { type: 'ok' } | { type: 'wrong' } | { type: 'blocked'; minutes: number };

/**
 * Verifies a signed-in member's current password, counting wrong ones: the try is taken before the
 * password is checked (SEC-19), so a burst of checks checks the limit's worth.
 */
export async function checkCurrentPassword(deps: Deps, member: { id: number; passwordHash: string | null }, password: string): Promise<PasswordCheck> {
  const key = passwordCheckKey(member.id);
  const taken = await takeTry(deps, key, ACCOUNT_RULE);
  if (taken.type === 'blocked') return { type: 'blocked', minutes: taken.block.minutes };
  if (member.passwordHash && password.length > 0 && (await verifyPassword(member.passwordHash, password))) {
    await clearFailures(deps, key);
    return { type: 'ok' };
  }
  return taken.try.block ? { type: 'blocked', minutes: taken.try.block.minutes } : { type: 'wrong' };
}

export const passwordChangeSchema = z.object({
  current_password: z.string().max(1024),
  password: z.string().max(1024),
  password_repeat: z.string().max(1024),
});
export type PasswordChangeForm = z.input<typeof passwordChangeSchema>;

export type PasswordChangeFieldError = PasswordProblem | 'passwords_differ' | 'wrong_password';

export type PasswordChangeResult =
  | { type: 'ok' }
  | { type: 'error'; reason: 'validation_failed'; fields: { current_password?: PasswordChangeFieldError; password?: PasswordChangeFieldError; password_repeat?: PasswordChangeFieldError } }
  | { type: 'error'; reason: 'too_many_attempts'; minutes: number };

/**
 * Changes the password of a signed-in member (AUTH-04): the new one must follow the password rule and
 * match its repeat, the current one must be right. Every other session of the member ends; the one in
 * use (`keepSessionId`) stays.
 */
export async function changePassword(deps: Deps, input: { userId: number; keepSessionId: string | null; form: PasswordChangeForm }): Promise<PasswordChangeResult> {
  const parsed = passwordChangeSchema.safeParse(input.form);
  if (!parsed.success) return { type: 'error', reason: 'validation_failed', fields: { password: 'password_too_long' } };
  const form = parsed.data;
  const [member] = await deps.db.select({ id: users.id, email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, input.userId)).limit(1);
  if (!member) return { type: 'error', reason: 'validation_failed', fields: { current_password: 'wrong_password' } };
  const problem = checkPassword(form.password, member.email);
  if (problem) return { type: 'error', reason: 'validation_failed', fields: { password: problem } };
  if (form.password !== form.password_repeat) return { type: 'error', reason: 'validation_failed', fields: { password_repeat: 'passwords_differ' } };
  const current = await checkCurrentPassword(deps, member, form.current_password);
  if (current.type === 'blocked') return { type: 'error', reason: 'too_many_attempts', minutes: current.minutes };
  if (current.type === 'wrong') return { type: 'error', reason: 'validation_failed', fields: { current_password: 'wrong_password' } };
  const passwordHash = await hashPassword(form.password);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, member.id));
    await revokeUserSessions(tx, member.id, input.keepSessionId ?? undefined);
  });
  return { type: 'ok' };
}

export type PreferencesResult = { type: 'ok'; disabled: NotificationKey[] } | { type: 'error'; reason: 'validation_failed'; fields: Record<string, string> };

/**
 * SET-02: stores which notifications are on. `enabled` lists the keys that are on (the checked boxes);
 * every other key is stored as disabled. An unknown key refuses the whole change.
 */
export async function setNotificationPreferences(deps: Pick<Deps, 'db'>, userId: number, enabled: readonly string[]): Promise<PreferencesResult> {
  const unknown = enabled.filter((key) => !isNotificationKey(key));
  if (unknown.length > 0 || enabled.length > NOTIFICATION_KEYS.length * 2) return { type: 'error', reason: 'validation_failed', fields: { enabled: 'invalid_choice' } };
  const disabled = NOTIFICATION_KEYS.filter((key) => !enabled.includes(key));
  await deps.db.update(users).set({ notificationsDisabled: disabled }).where(eq(users.id, userId));
  return { type: 'ok', disabled };
}

/** The preferences as on/off per key, from the stored disabled list (unknown stored keys are ignored). */
export function notificationStates(disabled: readonly string[]): Record<NotificationKey, boolean> {
  return Object.fromEntries(NOTIFICATION_KEYS.map((key) => [key, !disabled.includes(key)])) as Record<NotificationKey, boolean>;
}

/**
 * SET-01: invisible members are left out of listings (search, landers); they can still use the site.
 * The site's shared answers (search pages, teasers, cached landers) are dropped in every process
 * (`site.content_changed`), so the member leaves them at once.
 */
export async function setInvisible(deps: Pick<Deps, 'db'> & { bus: EventBus }, userId: number, invisible: boolean): Promise<void> {
  const [row] = await deps.db.update(users).set({ invisible }).where(eq(users.id, userId)).returning({ siteId: users.siteId });
  if (row) await deps.bus.publish('site.content_changed', { siteId: row.siteId });
}

/**
 * HON-02: whether the public pages (landing, landers, member landings) may show the member by first name,
 * age, city and approved main photo. Every process drops the site's public pages at once.
 */
export async function setPublicProfile(deps: Pick<Deps, 'db'> & { bus: EventBus }, userId: number, on: boolean): Promise<void> {
  const [row] = await deps.db.update(users).set({ publicProfile: on }).where(eq(users.id, userId)).returning({ siteId: users.siteId });
  if (row) await deps.bus.publish('site.content_changed', { siteId: row.siteId });
}

export async function publicProfileOf(deps: Pick<Deps, 'db'>, userId: number): Promise<boolean> {
  const [row] = await deps.db.select({ on: users.publicProfile }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.on ?? false;
}

/** Read receipts and typing (CHT-10): whether the member sends them to the people they chat with. */
export async function setChatSignals(deps: Pick<Deps, 'db'>, userId: number, on: boolean): Promise<void> {
  await deps.db.update(users).set({ chatSignals: on }).where(eq(users.id, userId));
}

export async function chatSignalsOf(deps: Pick<Deps, 'db'>, userId: number): Promise<boolean> {
  const [row] = await deps.db.select({ on: users.chatSignals }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.on ?? true;
}
