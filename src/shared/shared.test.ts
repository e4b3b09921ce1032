import { describe, expect, it } from 'vitest';
import { countBadge, creditBadge, creditsEntry } from './badges';
import { cleanPhone } from './settings';
import { MAX_ID, parseId } from './ids';

describe('navigation badges', () => {
  it('NAV-01 unread and new-likes badges: hidden at 0, the number up to 99, then 99+', () => {
    expect(countBadge(0)).toBeNull();
    expect(countBadge(-3)).toBeNull();
    expect(countBadge(7)).toBe('7');
    expect(countBadge(99)).toBe('99');
    expect(countBadge(100)).toBe('99+');
  });
  it('NAV-02 credit badge for paid users at 10 or less: warning above 0, danger at 0', () => {
    expect(creditBadge({ paid_user: true, credits: 11 })).toBeNull();
    expect(creditBadge({ paid_user: true, credits: 10 })).toEqual({ text: '10', variant: 'warning' });
    expect(creditBadge({ paid_user: true, credits: 1 })).toEqual({ text: '1', variant: 'warning' });
    expect(creditBadge({ paid_user: true, credits: 0 })).toEqual({ text: '0', variant: 'danger' });
    expect(creditBadge({ paid_user: false, credits: 0 })).toBeNull();
  });
  it('NAV-02 paid users’ credits entry repeats the order; others get premium', () => {
    expect(creditsEntry({ paid_user: true })).toEqual({ href: '/credits/repeat-order', kind: 'credits' });
    expect(creditsEntry({ paid_user: false })).toEqual({ href: '/credits', kind: 'premium' });
  });
});

describe('support phone', () => {
  it('SITE-05 is cleaned of dashes and spaces', () => {
    expect(cleanPhone('+31 20-123 4567')).toBe('+31201234567');
  });
});

describe('ids from addresses and forms', () => {
  it('SEC-19 an id is a positive int32 in canonical decimal form', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('42')).toBe(42);
    expect(parseId('2147483647')).toBe(MAX_ID);
  });
  it.each(['', '0', '-1', '2147483648', '4294967296', '9999999999', '99999999999999999999', 'abc', '1e3', ' 1', '1 ', '01', '+1', '1.0', '0x1F', '\r\n', '1\n', '١', '1,2', 'NaN', 'Infinity'])(
    'SEC-19 %j is no id',
    (value) => {
      expect(parseId(value)).toBeNull();
    },
  );
  it('SEC-19 a missing value is no id', () => {
    expect(parseId(undefined)).toBeNull();
    expect(parseId(null)).toBeNull();
  });
});
