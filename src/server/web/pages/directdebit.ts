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
    { field: 'accountHolder', type: 'text', autocomplete: 'name', wrapper: 'mb-3 col-12' },
    { field: 'iban', type: 'text', autocomplete: 'off', wrapper: 'mb-3 col-12', help: t('directdebit:iban_help') },
    { field: 'street', type: 'text', autocomplete: 'address-line1', wrapper: 'mb-3 col-7' },
    { field: 'houseNumber', type: 'text', autocomplete: 'off', wrapper: 'mb-3 col-5' },
    { field: 'zip', type: 'text', autocomplete: 'postal-code', wrapper: 'mb-3 col-5' },
    { field: 'city', type: 'text', autocomplete: 'address-level2', wrapper: 'mb-3 col-7' },
    { field: 'mobile', type: 'tel', autocomplete: 'tel', wrapper: 'mb-3 col-12', help: t('directdebit:mobile_help'), inputmode: 'tel' },
  ];
  return {
    packageId,
    pkgField: packageId ? String(packageId) : '',
    state,
    active,
    pending,
    change,
    confirmed: params.get('confirmed') === '1' && active,
    resent: params.get('resent') === '1',
    codeStep: Boolean(pending && !pending.codeUsed && !change && posted?.action !== 'details'),
    formError: posted?.result.formError ?? null,
    fieldErrors,
    values,
    invalidFields: MANDATE_FIELDS.filter((f) => fieldErrors[f]),
    labels,
    fields,
    dateFormat: siteDateTimeFormat(lang, site.settings, { dateStyle: 'long' }),
    codeLength: CODE_LENGTH,
    fieldMax: FIELD_MAX,
    maskIban,
    maskMobile,
  };
}
