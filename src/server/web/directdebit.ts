/**
 * Direct debit on the web: the configured limit, the member's mandate for a payment (the credits pages),
 * and the /directdebit forms (DD-01, DD-02; decision 023): `step=details` checks the form and sends the SMS
 * code; `step=confirm` checks the code and makes the mandate active, then sends the member back to
 * the purchase they came from (`package`); `step=resend` sends another code. A refusal changes nothing
 * and comes back with its translated text.
 */
import { servicesFor } from './services';
import type { CurrentUser } from '../members/account';
import { CODE_TTL_MS } from '../directdebit/codes';
import { confirmCode, resendCode, submitDetails, type SmsWait } from '../directdebit/service';
import { siteDateTimeFormat } from '../sites/site-time';
import { FIELD_MAX, MANDATE_FIELDS, type MandateField } from '../directdebit/validate';
import type { RequestContext } from './request-context';
import { invalid, redirect, type FormHandler, type MultiActionSpec } from './form-action';
import { parseId } from '../../shared/ids';
import type { DirectDebitLimit } from '../directdebit/limit';
import { activeMandate, memberState } from '../directdebit/service';

type Ctx = Pick<RequestContext, 'app' | 't' | 'site' | 'lang' | 'log' | 'linkOrigin' | 'responseDone'>;
type Member = Pick<CurrentUser, 'id' | 'profile'>;

export interface DirectDebitEcho {
  values?: Record<MandateField, string>;
}

export type DirectDebitStep = 'details' | 'confirm' | 'resend';

export function directDebitForm(ctx: Ctx, user: Member): MultiActionSpec<DirectDebitEcho, DirectDebitStep> {
  const { t } = ctx;
  const deps = () => servicesFor(ctx);
  const minutes = CODE_TTL_MS / 60_000;
  const smsText = (code: string, reference: string) => t('directdebit:sms_text', { site: ctx.site.settings.name, code, reference, minutes, count: minutes });
  const back = (form: { text(name: string): string }) => {
    const pkg = packageParam(form.text('package'));
    return pkg ? `?package=${pkg}` : '';
  };
  // How long to wait, in words: minutes within the next hour and a half, else the time (the site's zone).
  const waitText = (wait: SmsWait) => {
    const when =
      wait.minutes <= 90
        ? t('directdebit:wait_minutes', { count: wait.minutes })
        : t('directdebit:wait_until', { time: siteDateTimeFormat(ctx.lang, ctx.site.settings, { weekday: 'long', hour: '2-digit', minute: '2-digit' }).format(wait.until) });
    return t(wait.scope === 'number' ? 'directdebit:rate_limited_number' : 'directdebit:rate_limited_member', { when });
  };
  const refused: FormHandler<DirectDebitEcho> = () => invalid(400, { formError: t('errors:generic'), reason: 'unknown_step' });
  return {
    field: 'step',
    otherwise: refused,
    actions: {
      details: async (form) => {
        const raw = Object.fromEntries(MANDATE_FIELDS.map((f) => [f, form.text(f)])) as Record<MandateField, string>;
        const result = await submitDetails(await deps(), { siteId: ctx.site.settings.id, memberId: user.id, country: user.profile.country, form: raw, smsText });
        if (result.type === 'sent') return redirect(`/directdebit${back(form)}`);
        if (result.type === 'blocked') return invalid(403, { formError: t('directdebit:blocked'), reason: 'blocked' });
        if (result.type === 'rate_limited') return invalid(429, { formError: waitText(result), reason: 'rate_limited', data: { values: raw } });
        if (result.type === 'sms_failed') return invalid(502, { formError: t('directdebit:sms_failed'), reason: 'sms_failed', data: { values: raw } });
        const fieldErrors: Record<string, string> = {};
        for (const [field, code] of Object.entries(result.fields)) {
          const key = code === 'blocked' ? `directdebit:errors.${field === 'iban' ? 'iban' : 'mobile'}_blocked` : `directdebit:errors.${code}`;
          fieldErrors[field] = t(key, { max: FIELD_MAX[field as MandateField], count: FIELD_MAX[field as MandateField] });
        }
        const blocked = Object.values(result.fields).includes('blocked');
        return invalid(blocked ? 403 : 400, { fieldErrors, reason: blocked ? 'blocklisted' : 'invalid', data: { values: result.values } });
      },
      confirm: async (form) => {
        const result = await confirmCode(await deps(), { memberId: user.id, code: form.text('code') });
        switch (result.type) {
          case 'confirmed': {
            const pkg = packageParam(form.text('package'));
            return redirect(pkg ? `/credits/${pkg}/directdebit` : '/directdebit?confirmed=1');
          }
          case 'malformed':
            return invalid(400, { fieldErrors: { code: t('directdebit:errors.code_malformed') }, reason: 'code_malformed' });
          case 'wrong':
            return invalid(400, { fieldErrors: { code: t('directdebit:errors.code_wrong', { left: result.attemptsLeft }) }, reason: 'code_wrong' });
          case 'blocked':
            return invalid(403, { formError: t(result.now ? 'directdebit:blocked_now' : 'directdebit:blocked'), reason: 'blocked' });
          case 'expired':
            return invalid(400, { formError: t('directdebit:errors.code_expired'), reason: 'code_expired' });
          case 'no_code':
            return invalid(400, { formError: t('directdebit:errors.no_code'), reason: 'no_code' });
        }
      },
      resend: async (form) => {
        const result = await resendCode(await deps(), { memberId: user.id, smsText });
        if (result.type === 'sent') return redirect(`/directdebit${back(form) || '?'}${back(form) ? '&' : ''}resent=1`);
        if (result.type === 'blocked') return invalid(403, { formError: t('directdebit:blocked'), reason: 'blocked' });
        if (result.type === 'rate_limited') return invalid(429, { formError: waitText(result), reason: 'rate_limited' });
        if (result.type === 'sms_failed') return invalid(502, { formError: t('directdebit:sms_failed'), reason: 'sms_failed' });
        return invalid(400, { formError: t('directdebit:errors.no_code'), reason: 'no_code' });
      },
    },
  };
}

export function directDebitLimit(ctx: Pick<RequestContext, 'app'>): DirectDebitLimit {
  return { cents: ctx.app.config.DIRECT_DEBIT_LIMIT_CENTS, days: ctx.app.config.DIRECT_DEBIT_LIMIT_DAYS };
}

/** The mandate a direct-debit payment of this member collects on: blocked, none yet, or its reference. */
export async function mandateForPayment(ctx: Pick<RequestContext, 'app'>, memberId: number): Promise<{ type: 'blocked' } | { type: 'none' } | { type: 'ok'; reference: string }> {
  if ((await memberState(ctx.app.db, memberId)).blocked) return { type: 'blocked' };
  const mandate = await activeMandate(ctx.app.db, memberId);
  return mandate ? { type: 'ok', reference: mandate.reference } : { type: 'none' };
}

/** A package id from a query or a form, or null. */
export function packageParam(value: string | null | undefined): number | null {
  return parseId(value);
}
