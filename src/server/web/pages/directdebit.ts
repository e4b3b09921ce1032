/**
 * The view model of /directdebit (DD-01, DD-02): the member's blocked state, active and pending mandate,
 * which step shows (details or code), the refusal of a post with its errors and echoed values, the
 * mandate fields with their labels, and the package the member returns to after confirming.
 */
import { CODE_LENGTH } from '../../directdebit/codes';
import { activeMandate, memberState, pendingMandate } from '../../directdebit/service';
import { FIELD_MAX, MANDATE_FIELDS, maskIban, maskMobile, type MandateField } from '../../directdebit/validate';
import type { CurrentUser } from '../../members/account';
import { siteDateTimeFormat } from '../../sites/site-time';
import { packageParam, type DirectDebitEcho, type DirectDebitStep } from '../directdebit';
import type { RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';

interface MandateInput {
  field: MandateField;
  type: 'text' | 'tel';
  autocomplete: string;
  wrapper: string;
  help?: string;
  inputmode?: 'text' | 'tel' | 'numeric';
  /** The form's step (issue 25): 1 the account (holder, IBAN, address), 2 the mobile number the code goes to. */
  step: 1 | 2;
}

export async function directDebitPage(
  ctx: Pick<RequestContext, 'app' | 'site' | 't' | 'lang'>,
  user: Pick<CurrentUser, 'id' | 'profile'>,
  posted: RefusedPost<DirectDebitEcho, DirectDebitStep> | null,
  url: URL,
) {
  const { app, site, t, lang } = ctx;
  const params = url.searchParams;
  const packageId = packageParam(posted?.form?.text('package') ?? params.get('package'));
  const state = await memberState(app.db, user.id);
  const active = state.blocked ? null : await activeMandate(app.db, user.id);
  const pending = state.blocked ? null : await pendingMandate(app.db, user.id);
  const change = params.get('change') === '1';
  const fieldErrors: Record<string, string> = posted?.result.fieldErrors ?? {};
  const values: Partial<Record<MandateField, string>> = posted?.result.data?.values ?? { accountHolder: user.profile.name ?? '' };
  const labels: Record<MandateField, string> = {
    accountHolder: t('directdebit:account_holder'),
    iban: t('directdebit:iban'),
    street: t('directdebit:street'),
    houseNumber: t('directdebit:house_number'),
    zip: t('directdebit:zip'),
    city: t('directdebit:city'),
    mobile: t('directdebit:mobile'),
  };
  const fields: MandateInput[] = [
    { field: 'accountHolder', type: 'text', autocomplete: 'name', wrapper: 'mb-3 col-12', step: 1 },
    { field: 'iban', type: 'text', autocomplete: 'off', wrapper: 'mb-3 col-12', help: t('directdebit:iban_help'), step: 1 },
    { field: 'street', type: 'text', autocomplete: 'address-line1', wrapper: 'mb-3 col-7', step: 1 },
    { field: 'houseNumber', type: 'text', autocomplete: 'off', wrapper: 'mb-3 col-5', step: 1 },
    { field: 'zip', type: 'text', autocomplete: 'postal-code', wrapper: 'mb-3 col-5', step: 1 },
    { field: 'city', type: 'text', autocomplete: 'address-level2', wrapper: 'mb-3 col-7', step: 1 },
    { field: 'mobile', type: 'tel', autocomplete: 'tel', wrapper: 'mb-3 col-12', help: t('directdebit:mobile_help'), inputmode: 'tel', step: 2 },
  ];
  const codeStep = Boolean(pending && !pending.codeUsed && !change && posted?.action !== 'details');
  const invalidFields = MANDATE_FIELDS.filter((f) => fieldErrors[f]);
  // Issue 25: the step shown first: the code (3) once one was sent; the mobile number (2) when only it was refused,
  // or the whole form was (the SMS could not be sent, too many codes); else the account (1).
  const firstInvalid = fields.find((f) => fieldErrors[f.field]);
  const refusedWhole = posted?.action === 'details' && !firstInvalid && Boolean(posted.result.formError);
  const currentStep: 1 | 2 | 3 = codeStep ? 3 : firstInvalid?.step === 2 || refusedWhole ? 2 : 1;
  return {
    packageId,
    currentStep,
    pkgField: packageId ? String(packageId) : '',
    state,
    active,
    pending,
    change,
    confirmed: params.get('confirmed') === '1' && active,
    resent: params.get('resent') === '1',
    codeStep,
    formError: posted?.result.formError ?? null,
    fieldErrors,
    values,
    invalidFields,
    labels,
    fields,
    dateFormat: siteDateTimeFormat(lang, site.settings, { dateStyle: 'long' }),
    codeLength: CODE_LENGTH,
    fieldMax: FIELD_MAX,
    maskIban,
    maskMobile,
  };
}
