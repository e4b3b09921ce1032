/**
 * Telling a member that something happened (PUSH-02): a new message, a new conversation, a like or a
 * match. Features call {@link notify}; it delivers by Web Push to each of the member's browsers and by
 * e-mail, in the member's language, according to their notification preferences (SET-02):
 *
 * | event            | preference (users.notifications_disabled) | mail kind                    |
 * | ---------------- | ----------------------------------------- | ---------------------------- |
 * | new_message      | new_messages                              | notify_new_message           |
 * | new_conversation | new_conversations                         | notify_new_conversation      |
 * | like_received    | like_received                             | notify_like                  |
 * | match            | like_received (a match is a like back)    | notify_match                 |
 *
 * A disabled preference sends nothing on either channel. Deleted accounts and non-member roles
 * (fictional profiles, operators) get nothing. For discretion no message text is ever included, only
 * who it is from. One channel failing does not stop the other; failures are logged.
 */
import { eq } from 'drizzle-orm';
import { profiles, users } from '../../db/schema';
import { createTranslator } from '../../i18n';
import { isLanguage } from '../../shared/languages';
import { sendAccountMail } from '../mail/member-mail';
import type { Db } from '../../db/client';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { PushDelivery, PushService } from '../push/service';
import type { SiteDirectory } from '../sites/directory';

export type NotifyEventType = 'new_message' | 'new_conversation' | 'like_received' | 'match';

export interface NotifyEvent {
  type: NotifyEventType;
  /** The member the event comes from (the writer, the liker, the match). */
  fromUserId: number;
  /** The conversation, for message events: the link opens it. */
  conversationId?: number;
}

/** The notification preference (SET-02) that switches each event off. */
export const PREFERENCE_FOR: Record<NotifyEventType, string> = {
  new_message: 'new_messages',
  new_conversation: 'new_conversations',
  like_received: 'like_received',
  match: 'like_received',
};

/** The mail kind (texts under `mail:<kind>.*`) of each event. */
export const MAIL_KIND_FOR: Record<NotifyEventType, string> = {
  new_message: 'notify_new_message',
  new_conversation: 'notify_new_conversation',
  like_received: 'notify_like',
  match: 'notify_match',
};

export type ChannelOutcome<T> = { type: 'ok'; value: T } | { type: 'error'; reason: string };

export type NotifyResult =
  { type: 'skipped'; reason: 'no_member' | 'deleted' | 'not_a_member' | 'disabled' } | { type: 'delivered'; push: ChannelOutcome<PushDelivery>; mail: ChannelOutcome<{ id: number }> };

/** The part of the app context notify needs (named here so this module does not import the context). */
export interface NotifyDeps {
  db: Db;
  log: Logger;
  mailer: Mailer;
  push: PushService;
  sites: SiteDirectory;
}

/** The page an event's notification opens, as a path on the member's site. */
export function linkFor(event: NotifyEvent): string {
  switch (event.type) {
    case 'new_message':
    case 'new_conversation':
      return event.conversationId ? `/chats/${event.conversationId}` : `/members/${event.fromUserId}/chat`;
    case 'like_received':
      return `/likes/m/${event.fromUserId}`;
    case 'match':
      return `/members/${event.fromUserId}/chat`;
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The channels a request's event goes by: a new message in a running conversation by push only (its mail
 * is the unread reminder after a quiet time, jobs/unread-reminders.ts, so a lively chat sends no mail
 * flood); a new conversation, a like and a match by push and mail.
 */
export function channelsFor(event: Pick<NotifyEvent, 'type'>): ReadonlyArray<'push' | 'mail'> {
  return event.type === 'new_message' ? ['push'] : ['push', 'mail'];
}

/**
 * Notifies `memberId` of `event` by push and e-mail as their preferences allow.
 * @param options.origin the site origin links point to; defaults to `https://<site domain>`.
 */
export async function notify(
  app: NotifyDeps,
  memberId: number,
  event: NotifyEvent,
  options: { origin?: string; /** Default both; a new message in a running conversation goes by push only (its mail is the unread reminder). */ channels?: ReadonlyArray<'push' | 'mail'> } = {},
): Promise<NotifyResult> {
  const channels = options.channels ?? ['push', 'mail'];
  const [member] = await app.db
    .select({
      id: users.id,
      siteId: users.siteId,
      email: users.email,
      language: users.language,
      role: users.role,
      status: users.status,
      deletedAt: users.deletedAt,
      notificationsDisabled: users.notificationsDisabled,
      name: profiles.name,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, memberId))
    .limit(1);
  if (!member) return { type: 'skipped', reason: 'no_member' };
  if (member.status === 'deleted' || member.status === 'banned' || member.deletedAt) return { type: 'skipped', reason: 'deleted' };
  if (member.role !== 'member') return { type: 'skipped', reason: 'not_a_member' };
  if (member.notificationsDisabled.includes(PREFERENCE_FOR[event.type])) return { type: 'skipped', reason: 'disabled' };

  const [sender] = await app.db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, event.fromUserId)).limit(1);
  const site = await app.sites.forId(member.siteId);
  const lang = isLanguage(member.language) ? member.language : site.settings.domain_language;
  const t = createTranslator(lang);
  const kind = MAIL_KIND_FOR[event.type];
  const values = { name: member.name, from: sender?.name ?? '?', site: site.settings.name };
  const path = linkFor(event);
  const origin = options.origin ?? `https://${site.settings.domain}`;
  const log = app.log.child({ notify: event.type, userId: member.id });

  const skipped = <T>(): Promise<ChannelOutcome<T>> => Promise.resolve({ type: 'error', reason: 'channel_not_used' });
  const pushing = !channels.includes('push')
    ? skipped<PushDelivery>()
    : app.push
        .sendToUser(
          member.id,
          { title: t(`mail:${kind}.push_title`, values), body: t(`mail:${kind}.push_body`, values), url: path, tag: `${event.type}-${event.fromUserId}` },
          `mailto:${site.settings.support_email}`,
        )
        .then(
          (value): ChannelOutcome<PushDelivery> => {
            if (value.failed > 0) log.warn({ delivery: value }, 'some push messages failed');
            return { type: 'ok', value };
          },
          (err: unknown): ChannelOutcome<PushDelivery> => {
            log.error({ err }, 'push notification failed');
            return { type: 'error', reason: errorText(err) };
          },
        );
  const mailing = !channels.includes('mail')
    ? skipped<{ id: number }>()
    : sendAccountMail(app, { site, user: { id: member.id, email: member.email, language: lang, name: member.name }, kind, url: origin + path, values }).then(
        (result): ChannelOutcome<{ id: number }> => {
          if (result.type === 'ok') return { type: 'ok', value: { id: result.id } };
          log.error({ reason: result.reason, mailId: result.id }, 'notification mail failed');
          return { type: 'error', reason: result.reason };
        },
        (err: unknown): ChannelOutcome<{ id: number }> => {
          log.error({ err }, 'notification mail failed');
          return { type: 'error', reason: errorText(err) };
        },
      );
  const [push, mail] = await Promise.all([pushing, mailing]);
  return { type: 'delivered', push, mail };
}
