/** Receipt arithmetic (CRD-04) and the discount rules' edges (CRD-07, TB-01), without a database. */
import { describe, expect, it } from 'vitest';
import { activeDiscount, discountCents, timeBonus, TIME_BONUS_MS, welcomeDiscount, WELCOME_MS } from './discounts';
import { quote } from './service';
import { formatRate, vatIncluded, vatRate } from './vat';

describe('receipts and discounts', () => {
  it("CRD-04 the VAT in a gross price: 21% of €10.24 incl. is €1.78; the member's country chooses the rate", () => {
    expect(vatIncluded(1024, vatRate('NL'))).toBe(178);
    expect(vatIncluded(1210, 2100)).toBe(210);
    expect(vatRate('de')).toBe(1900);
    expect(vatRate('XX')).toBe(2100);
    expect(formatRate(2100, 'nl')).toBe('21%');
  });

  it('CRD-05 a quote is price − discount + transaction costs, in cents', () => {
    expect(quote({ priceCents: 995, currency: 'EUR', credits: 50 }, { code: 'TIMEBONUS25', percent: 25, kind: 'time_bonus', expires_at: null }, 29)).toMatchObject({
      discountCents: 249,
      amountCents: 995 - 249 + 29,
    });
    expect(quote({ priceCents: 995, currency: 'EUR', credits: 50 }, null, 49)).toMatchObject({ discountCents: 0, amountCents: 1044 });
    expect(discountCents(1, 90)).toBe(0);
  });

  it('TB-01 CRD-07 the time bonus lasts exactly 4 hours after signup, the welcome code 7 days; neither for paid members', () => {
    const signup = new Date('2026-11-23T08:00:00Z');
    const member = { id: 1, paid_user: false, signup_date: signup.toISOString() };
    expect(timeBonus(member, new Date(signup.getTime() + TIME_BONUS_MS - 1))).toMatchObject({ code: 'TIMEBONUS25', expires_at: '2026-11-23T12:00:00.000Z' });
    expect(timeBonus(member, new Date(signup.getTime() + TIME_BONUS_MS))).toBeNull();
    expect(activeDiscount(member, new Date(signup.getTime() + TIME_BONUS_MS))).toMatchObject({ code: 'WELCOME25' });
    expect(welcomeDiscount(member, new Date(signup.getTime() + WELCOME_MS))).toBeNull();
    expect(activeDiscount({ ...member, paid_user: true }, signup)).toBeNull();
  });
});
