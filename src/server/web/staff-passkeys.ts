/**
 * The back office's passkeys (PASS-01): the WebAuthn options of /admin/passkey-options, the forms of
 * /admin/passkeys (add, remove; audit-logged by the service) and reading the passkey answer the staff
 * login form carries instead of the code. The relying party is this request's host (`requestRelyingParty`).
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { authenticationOptions } from '../auth/webauthn';
import type { StaffMember } from '../staff/accounts';
import { addStaffPasskey, listStaffPasskeys, removeStaffPasskey, staffRegistrationOptions } from '../staff/passkeys';
import { ApiError } from './api';
import { invalid, redirect, type MultiActionSpec } from './form-action';
import { requestRelyingParty } from './passkeys';
import type { RequestContext } from './request-context';
import type { Schema } from '../../shared/api/contract';
import { passkeyLoginBody, passkeyRegistrationBody } from '../../shared/api/passkeys';

type Ctx = Pick<RequestContext, 'app' | 'site' | 'origin' | 't' | 'lang'>;

/** Options for a staff login's second factor (no session needed), or for a new passkey of the signed-in staff member. */
export async function staffPasskeyOptions(ctx: Ctx, member: StaffMember | null, purpose: 'login' | 'register'): Promise<Schema<'WebAuthnOptions'>> {
  const deps = { db: ctx.app.db, clock: ctx.app.clock };
  const rp = requestRelyingParty(ctx);
  if (purpose === 'login') return (await authenticationOptions(deps, rp, 'staff_login')) as unknown as Schema<'WebAuthnOptions'>;
  if (!member) throw new ApiError('authentication_required');
  return (await staffRegistrationOptions(deps, rp, member)) as unknown as Schema<'WebAuthnOptions'>;
}

/** The WebAuthn answer a form carries as JSON text (a hidden field), checked for shape; null when there is none or it is not one. */
function answerIn<T>(text: string, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }): T | null {
  if (!text || text.length > 40_000) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The staff login form's passkey answer (PASS-01) with this host's relying party, or null for a login by code. */
export function staffLoginPasskey(ctx: Ctx, text: string): { rp: ReturnType<typeof requestRelyingParty>; response: AuthenticationResponseJSON } | null | 'invalid' {
  if (!text) return null;
  const answer = answerIn(text, passkeyLoginBody.shape.response);
  return answer ? { rp: requestRelyingParty(ctx), response: answer as unknown as AuthenticationResponseJSON } : 'invalid';
}

export type StaffPasskeyFormName = 'add' | 'remove';

/** The forms of /admin/passkeys for the signed-in staff member. */
export function staffPasskeyForm(ctx: Ctx, member: StaffMember & { sessionId: string }): MultiActionSpec<undefined, StaffPasskeyFormName> {
  const { app, t } = ctx;
  const deps = { db: app.db, clock: app.clock };
  return {
    field: 'form',
    actions: {
      add: async (form) => {
        const answer = answerIn(form.text('response'), passkeyRegistrationBody.shape.response);
        if (!answer) return invalid(400, { formError: t('staff:passkey_error_add') });
        const fallbackName = t('settings:passkey_default_name', { date: new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'medium' }).format(app.clock.now()) });
        const result = await addStaffPasskey(deps, requestRelyingParty(ctx), { staffId: member.id, name: form.text('name'), fallbackName, response: answer as unknown as RegistrationResponseJSON });
        if (result.type === 'error') return invalid(result.reason === 'passkey_invalid' ? 400 : 409, { formError: t(`errors:${result.reason}`) });
        return redirect('/admin/passkeys?done=added');
      },
      remove: async (form) => {
        const id = /^[1-9]\d{0,9}$/.test(form.text('passkey')) ? Number(form.text('passkey')) : null;
        if (id === null || id > 2147483647 || !(await removeStaffPasskey(deps, { staffId: member.id, passkeyId: id, keepSessionId: member.sessionId }))) {
          return invalid(404, { formError: t('staff:passkey_not_found') });
        }
        return redirect('/admin/passkeys?done=removed');
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

/** What /admin/passkeys shows: the staff member's passkeys and the notice of a successful post. */
export async function staffPasskeysPage(ctx: Ctx, member: StaffMember, url: URL) {
  const date = new Intl.DateTimeFormat(ctx.lang, { dateStyle: 'medium' });
  const done = url.searchParams.get('done');
  const list = await listStaffPasskeys(ctx.app.db, member.id);
  return {
    list: list.map((p) => ({ id: p.id, name: p.name, created: date.format(p.createdAt) })),
    notice: done === 'added' ? ctx.t('staff:passkey_added') : done === 'removed' ? ctx.t('staff:passkey_removed') : null,
  };
}
