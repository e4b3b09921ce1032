/**
 * The view model of /credits (CRD-02, CRD-05, CRD-06, CRD-07): the site's packages, the payment methods
 * for the member's country (none without a payment provider, SEC-14), the member's active discount and
 * until when it runs, and the choices to show again (package, method, bank, discount code) after a post
 * was refused or when a link names a package.
 */
import { formatMoney, listPackages } from '../../credits/packages';
import type { CurrentUser } from '../../members/account';
import { memberDiscount } from '../../payments/discounts';
import { siteDateTimeFormat } from '../../sites/site-time';
import { parseId } from '../../../shared/ids';
import { discountMember } from '../credits';
import type { RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';
import { servicesFor } from '../services';

export async function creditsPage(
  ctx: Pick<RequestContext, 'app' | 'site' | 'lang' | 'log' | 'linkOrigin' | 'responseDone'>,
  user: Pick<CurrentUser, 'id' | 'paid_user' | 'signup_date' | 'profile'>,
  posted: RefusedPost | null,
  url: URL,
) {
  const { app, site, lang } = ctx;
  const form = posted?.form;
  const packages = await listPackages(app.db, site.settings.id);
  const deps = await servicesFor(ctx);
  // SEC-14: without a payment provider nothing can be bought: the page says so instead of offering packages.
  const provider = deps.providers.current;
  const methods = provider ? await provider.listMethods(user.profile.country) : [];
  const discount = (await memberDiscount(app.db, discountMember(user), app.clock.now()))?.discount ?? null;
  const wanted = parseId(form?.text('package') || url.searchParams.get('package'));
  return {
    errors: posted?.result.fieldErrors ?? {},
    packages,
    provider,
    methods,
    discount,
    chosenPackage: packages.find((p) => p.id === wanted)?.id ?? packages.find((p) => p.highlighted)?.id ?? packages[0]?.id,
    chosenMethod: form?.text('method') || methods[0]?.id,
    chosenIssuer: form?.text('issuer') ?? '',
    code: form?.text('code') ?? url.searchParams.get('code') ?? '',
    money: (cents: number, currency: string) => formatMoney(cents, currency, lang),
    until: discount?.expires_at ? siteDateTimeFormat(lang, site.settings, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(discount.expires_at)) : null,
    currency: packages[0]?.currency ?? 'EUR',
    issuers: methods.find((m) => m.issuers.length > 0),
  };
}
