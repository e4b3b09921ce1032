/**
 * Sending e-mail through nodemailer. With `SMTP_URL` set, mail goes to that relay; without it, the
 * message is built by nodemailer all the same and kept in the `mail_outbox` table, which the mail viewer
 * (/dev/mail, to this machine only: see outbox-access.ts) shows, so every flow works offline. Either way the outbox
 * row records what was sent.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Logger } from '../logger';
import type { Clock } from '../clock';

export interface OutgoingMail {
  siteId: number;
  userId?: number | null;
  /** What the mail is for: 'activation', 'password_reset', 'complaint', … */
  kind: string;
  to: string;
  /** Display name of the sender (the site's mail_name). */
  fromName: string;
  /** Sender address; the site's domain by default. */
  fromAddress: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

export type SendResult = { type: 'ok'; id: number; status: 'outbox' | 'sent' } | { type: 'error'; id: number; reason: string };

/** What a service that mails a member needs: the database (tokens, the outbox), the clock and the mailer. */
export interface MailDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
}

export class Mailer {
  private readonly transport: Transporter;
  readonly mode: 'smtp' | 'outbox';

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    smtpUrl?: string,
  ) {
    this.mode = smtpUrl ? 'smtp' : 'outbox';
    // The outbox mode still runs nodemailer (streamTransport) so the message is built exactly as it would be sent.
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({
        siteId: mail.siteId,
        userId: mail.userId ?? null,
        kind: mail.kind,
        toAddress: mail.to,
        fromAddress: `${mail.fromName} <${mail.fromAddress}>`,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      })
      .returning({ id: mailOutbox.id });
    const id = row!.id;
    try {
      const info = await this.transport.sendMail({
        from: { name: mail.fromName, address: mail.fromAddress },
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      const status = this.mode === 'smtp' ? 'sent' : 'outbox';
      await this.db
        .update(mailOutbox)
        .set({ status, messageId: info.messageId ?? null })
        .where(eq(mailOutbox.id, id));
      return { type: 'ok', id, status };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error({ err, mailId: id, kind: mail.kind }, 'mail could not be sent');
      await this.db
        .update(mailOutbox)
        .set({ status: 'failed', error: reason.slice(0, 500) })
        .where(eq(mailOutbox.id, id));
      return { type: 'error', id, reason };
    }
  }

  /** Latest mails, newest first (development mail viewer, tests). */
  async recent(limit = 50, to?: string) {
    const query = this.db.select().from(mailOutbox);
    return (to ? query.where(eq(mailOutbox.toAddress, to)) : query).orderBy(desc(mailOutbox.id)).limit(limit);
  }

  async byId(id: number) {
    const [row] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
    return row ?? null;
  }
}
