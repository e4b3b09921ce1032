/**
 * The /complaints form (STA-03): a valid complaint is stored and mailed (src/server/complaints), then
 * the page shows its thank-you; a refused one comes back with the cleaned values and the translated
 * errors (400), or the message of the limit it met (429: the address's daily, the client address's or
 * the site's hourly limit, SEC-05).
 */
import { COMPLAINT_FIELDS, COMPLAINT_LIMITS, fileComplaint, type ComplaintField } from '../../complaints/complaints';
import type { RequestContext } from '../request-context';
import { invalid, redirect, translateFields, type SingleActionSpec } from '../form-action';

/** What a refused complaint shows again. */
export interface ComplaintEcho {
  values: Record<ComplaintField, string>;
}

/** The complaint form, for a visitor or the signed-in member. */
export function complaintForm(ctx: Pick<RequestContext, 'app' | 'site' | 'lang' | 't' | 'user' | 'clientIp'>): SingleActionSpec<ComplaintEcho> {
  const { app, t } = ctx;
  return {
    handle: async (form) => {
      const raw = Object.fromEntries(COMPLAINT_FIELDS.map((f) => [f, form.data.get(f) ?? '']));
      const result = await fileComplaint({ db: app.db, mailer: app.mailer, clock: app.clock }, { site: ctx.site, lang: ctx.lang, userId: ctx.user?.id ?? null, ip: ctx.clientIp, form: raw });
      if (result.type === 'ok') return redirect('/complaints?sent=1');
      const data = { values: result.values };
      if (result.type === 'rate_limited') {
        // SEC-05: the complainant's daily limit, the client address's or the site's hourly limit.
        const text = result.limit === 'address' ? 'complaints:errors.rate_limited' : `complaints:errors.rate_limited_${result.limit}`;
        return invalid(429, { formError: t(text), reason: 'rate_limited', data });
      }
      const fieldErrors = translateFields(result.fields, (code, field) => {
        const limits = COMPLAINT_LIMITS[field as ComplaintField] as { min?: number; max: number };
        return t(`complaints:errors.${code}`, { min: limits.min ?? 1, max: limits.max, count: code === 'too_short' ? (limits.min ?? 1) : limits.max });
      });
      return invalid(400, { fieldErrors, data });
    },
  };
}
