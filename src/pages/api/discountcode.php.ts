/**
 * GET /api/discountcode.php (CRD-06, CRD-07, TB-01): the signed-in member's active discount — the time
 * bonus if present, else the welcome code — as `{ discount: { code, percent, kind, expires_at } | null }`.
 * `?welcome=true`: the welcome code only. `?code=X`: that code checked for this member; a code not
 * found, used before or expired is 400 with its error code and text. The server decides; the
 * time-bonus countdown only counts down to `expires_at`.
 */
import { ApiError, endpoint, json, methodNotAllowed, readQuery } from '../../server/web/api';
import { requireMember } from '../../server/web/request-context';
import { activeDiscount, checkCode, welcomeDiscount } from '../../server/payments/discounts';
import { discountMember } from '../../server/web/credits';
import { discountQuery, type DiscountAnswer } from '../../shared/api/discountcode';

export const GET = endpoint(async ({ locals, url }) => {
  const user = requireMember(locals, url.pathname);
  const { welcome, code } = readQuery(url, discountQuery);
  const member = discountMember(user);
  const now = locals.app.clock.now();
  if (code !== undefined && code.trim() !== '') {
    const checked = await checkCode(locals.app.db, { member, siteId: locals.site.settings.id, code, now });
    if (!checked.ok) throw new ApiError(checked.reason);
    return json({ discount: checked.discount } satisfies DiscountAnswer);
  }
  if (welcome === 'true' || welcome === '1') return json({ discount: welcomeDiscount(member, now) } satisfies DiscountAnswer);
  return json({ discount: activeDiscount(member, now) } satisfies DiscountAnswer);
});

export const ALL = methodNotAllowed;
