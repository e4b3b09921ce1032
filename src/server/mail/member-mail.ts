/**
 * Account mails in the member's language with the site's name, domain and support details. Links use
 * the origin the member used (the request's), so they work on every host a site answers on.
 */
import type { Site } from '../sites/directory';
import { createTranslator } from '../../i18n';
import { isLanguage } from '../../shared/languages';
import { renderMail, siteSender } from './layout';
import type { Mailer, SendResult } from './mailer';

export interface AccountMail {
  site: Site;
  user: { id: number; email: string; language: string; name: string };
  /** Key under the `mail` namespace: `mail:<kind>.subject`, `.heading`, `.body` (array of paragraphs), `.button`. */
  kind: string;
  /** Link the button opens (absolute URL). */
  url?: string;
  /** Values for the texts ({{name}}, {{site}} are always set). */
  values?: Record<string, string | number>;
  /** Overrides the recipient (e.g. the new address of an e-mail change). */
  to?: string;
}

/** Renders and sends one account mail through the app's mailer. */
export async function sendAccountMail(app: { mailer: Pick<Mailer, 'send'> }, mail: AccountMail): Promise<SendResult> {
  const lang = isLanguage(mail.user.language) ? mail.user.language : mail.site.settings.domain_language;
  const t = createTranslator(lang);
  const values = { name: mail.user.name, site: mail.site.settings.name, ...mail.values };
  const body = t(`mail:${mail.kind}.body`, { ...values, returnObjects: true }) as unknown;
  const paragraphs = Array.isArray(body) ? body.map(String) : [String(body)];
  const { text, html } = renderMail(mail.site, {
    heading: t(`mail:${mail.kind}.heading`, values),
    paragraphs,
    ...(mail.url ? { button: { label: t(`mail:${mail.kind}.button`, values), url: mail.url } } : {}),
    footer: t('mail:footer', values),
  });
  return app.mailer.send({
    siteId: mail.site.settings.id,
    userId: mail.user.id,
    kind: mail.kind,
    to: mail.to ?? mail.user.email,
    ...siteSender(mail.site),
    replyTo: mail.site.settings.support_email,
    subject: t(`mail:${mail.kind}.subject`, values),
    text,
    html,
  });
}
