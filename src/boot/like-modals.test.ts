import { describe, expect, it } from 'vitest';
import { fill, popupDelay, popupLike, withoutDelayParam } from './like-modals';
import { showCountBadge } from '../client/nav-badge';
import { newLikesCount } from '../stores/likes';

const card = (id: number, like_new: boolean) => ({
  id,
  name: `M${id}`,
  age: 30,
  country: 'NL',
  region: null,
  city: null,
  fictional: false,
  main_image: null,
  like_new,
  liked_at: '2026-11-23T00:00:00.000Z',
});

describe('like pop-up (LIK-04)', () => {
  it('LIK-04 reads the delay in whole seconds from t and ignores anything else', () => {
    expect(popupDelay('?t=3')).toBe(3000);
    expect(popupDelay('?a=1&t=0')).toBe(0);
    expect(popupDelay('')).toBeNull();
    for (const bad of ['?t=-1', '?t=abc', '?t=1.5', '?t=99999', `?t=${'9'.repeat(10_000)}`]) expect(popupDelay(bad)).toBeNull();
  });

  it('LIK-04 removes t from the address and keeps the rest', () => {
    expect(withoutDelayParam('http://x.test/members?t=5&page=2#top')).toBe('/members?page=2#top');
    expect(withoutDelayParam('http://x.test/likes?t=5')).toBe('/likes');
  });

  it('LIK-04 shows the newest new like, else the newest like, else nothing', () => {
    expect(popupLike({ profiles: [card(1, false), card(2, true), card(3, true)] })?.id).toBe(2);
    expect(popupLike({ profiles: [card(1, false), card(2, false)] })?.id).toBe(1);
    expect(popupLike({ profiles: [] })).toBeNull();
    expect(popupLike(null)).toBeNull();
  });

  it('LIK-03 puts the name into the rendered text', () => {
    expect(fill('{name} vindt je leuk.', 'Anna')).toBe('Anna vindt je leuk.');
    expect(fill(undefined, 'Anna')).toBe('');
  });
});

describe('new-likes badge (NAV-01)', () => {
  it('NAV-01 counts only new likes', () => {
    expect(newLikesCount([{ like_new: true }, { like_new: false }, { like_new: true }])).toBe(2);
    expect(newLikesCount([])).toBe(0);
  });

  it('NAV-01 shows the count capped at 99+, hidden at 0, with the label filled in', () => {
    const attrs: Record<string, string> = {};
    const badge = {
      hidden: false,
      textContent: '' as string | null,
      dataset: { labels: JSON.stringify({ one: '{count} nieuwe like', other: '{count} nieuwe likes' }) },
      setAttribute: (k: string, v: string) => void (attrs[k] = v),
    };
    showCountBadge(badge, 150, 'nl');
    expect(badge).toMatchObject({ hidden: false, textContent: '99+' });
    expect(attrs['aria-label']).toBe('150 nieuwe likes');
    showCountBadge(badge, 3, 'nl');
    expect(badge.textContent).toBe('3');
    showCountBadge(badge, 0, 'nl');
    expect(badge.hidden).toBe(true);
  });

  it('UX-05 NAV-01 the badge label takes the plural form of the page language for the count', () => {
    const attrs: Record<string, string> = {};
    const labels = { one: '{count} nowe polubienie', few: '{count} nowe polubienia', many: '{count} nowych polubień', other: '{count} nowego polubienia' };
    const badge = { hidden: false, textContent: '' as string | null, dataset: { labels: JSON.stringify(labels) }, setAttribute: (k: string, v: string) => void (attrs[k] = v) };
    const label = (n: number) => (showCountBadge(badge, n, 'pl'), attrs['aria-label']);
    expect(label(1)).toBe('1 nowe polubienie');
    expect(label(3)).toBe('3 nowe polubienia');
    expect(label(5)).toBe('5 nowych polubień');
    expect(label(22)).toBe('22 nowe polubienia');
    expect(label(112)).toBe('112 nowych polubień');
    showCountBadge(badge, 1, 'en');
    expect(attrs['aria-label']).toBe('1 nowe polubienie');
  });
});
