/** The mailer against a real database: the offline outbox, and a local SMTP server standing in for the relay. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { renderMail } from './layout';
import { Mailer } from './mailer';
import type { Site } from '../sites/directory';

const site = {
  settings: { name: 'Flirtlokaal', domain: 'flirtlokaal.nl', support_email: 'support@flirtlokaal.nl', support_phone: '+31 20-123 4567', mail_name: 'Flirtlokaal' },
  company: { name: 'Lokaal Media B.V.', address: 'Keizersgracht 1', city: 'Amsterdam' },
} as unknown as Site;

let database: Database;
beforeAll(async () => {
  database = await openDatabase('memory://');
});
afterAll(async () => {
  await database?.close();
});

const mail = () => {
  const { text, html } = renderMail(site, { heading: 'Welkom <b>', paragraphs: ['Hallo & welkom'], button: { label: 'Activeer', url: 'https://flirtlokaal.nl/activate?t=1' }, footer: 'Vragen?' });
  return { siteId: 1, kind: 'test', to: 'sanne@example.com', fromName: 'Flirtlokaal', fromAddress: 'noreply@flirtlokaal.nl', subject: 'Welkom', text, html };
};

describe('mailer', () => {
  it('without SMTP the mail is built and kept in the outbox', async () => {
    const mailer = new Mailer(database.db, pino({ level: 'silent' }));
    const result = await mailer.send(mail());
    expect(result).toMatchObject({ type: 'ok', status: 'outbox' });
    const [row] = await mailer.recent(1, 'sanne@example.com');
    expect(row).toMatchObject({ subject: 'Welkom', status: 'outbox', fromAddress: 'Flirtlokaal <noreply@flirtlokaal.nl>' });
    expect(row!.messageId).toMatch(/@/);
    expect(row!.text).toContain('https://flirtlokaal.nl/activate?t=1');
    expect(row!.text).toContain('support@flirtlokaal.nl');
    expect(row!.html).toContain('Welkom &lt;b&gt;');
    expect(row!.html).toContain('href="tel:+31201234567"');
  });

  it('with SMTP configured the mail reaches the relay and is recorded as sent', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const { port } = smtp.server.address() as AddressInfo;
    try {
      const mailer = new Mailer(database.db, pino({ level: 'silent' }), `smtp://127.0.0.1:${port}`);
      const result = await mailer.send({ ...mail(), to: 'mark@example.com' });
      expect(result).toMatchObject({ type: 'ok', status: 'sent' });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Subject: Welkom');
      expect(received[0]).toContain('mark@example.com');
      expect((await mailer.recent(1, 'mark@example.com'))[0]!.status).toBe('sent');
    } finally {
      await new Promise<void>((r) => smtp.close(() => r()));
    }
  });

  it('a relay that refuses is recorded as failed, not thrown at the caller', async () => {
    const mailer = new Mailer(database.db, pino({ level: 'silent' }), 'smtp://127.0.0.1:1');
    const result = await mailer.send({ ...mail(), to: 'nobody@example.com' });
    expect(result.type).toBe('error');
    expect((await mailer.recent(1, 'nobody@example.com'))[0]!.status).toBe('failed');
  });
});
