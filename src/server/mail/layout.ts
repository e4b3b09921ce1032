/**
 * The frame every mail shares: the site's name and domain on top, the support details below, in the
 * recipient's language. Features write only the body (paragraphs and an optional button).
 */
import type { Site } from '../sites/directory';
import { cleanPhone } from '../../shared/settings';

export interface MailBody {
  heading: string;
  paragraphs: string[];
  button?: { label: string; url: string };
  /** Translated "questions? contact …" line; the support details are appended. */
  footer: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderMail(site: Site, body: MailBody): { text: string; html: string } {
  const { settings, company } = site;
  const support = `${settings.support_email} · ${settings.support_phone}`;
  const text = [
    settings.name,
    '',
    body.heading,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.button ? [`${body.button.label}: ${body.button.url}`, ''] : []),
    '--',
    `${body.footer} ${support}`,
    `${company.name}, ${company.address}, ${company.city} · https://${settings.domain}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f7f1f3;font-family:Arial,Helvetica,sans-serif;color:#212529">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:560px;background:#fff;border-radius:8px" cellpadding="0" cellspacing="0">
<tr><td style="background:#d6215a;color:#fff;padding:16px 24px;font-size:20px;font-weight:bold;border-radius:8px 8px 0 0">${escape(settings.name)}</td></tr>
<tr><td style="padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escape(body.heading)}</h1>
${body.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escape(p)}</p>`).join('\n')}
${body.button ? `<p style="margin:24px 0"><a href="${escape(body.button.url)}" style="background:#d6215a;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escape(body.button.label)}</a></p><p style="font-size:12px;color:#6c757d;word-break:break-all">${escape(body.button.url)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#6c757d;border-top:1px solid #eee">${escape(body.footer)} <a href="mailto:${escape(settings.support_email)}">${escape(settings.support_email)}</a> · <a href="tel:${escape(cleanPhone(settings.support_phone))}">${escape(settings.support_phone)}</a><br>${escape(company.name)}, ${escape(company.address)}, ${escape(company.city)} · <a href="https://${escape(settings.domain)}">${escape(settings.domain)}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { text, html };
}

/** The sender of a site's mail: its mail_name at its own domain. */
export function siteSender(site: Site): { fromName: string; fromAddress: string } {
  return { fromName: site.settings.mail_name, fromAddress: `noreply@${site.settings.domain}` };
}
