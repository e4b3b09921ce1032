/** NAV-02, CRD-01: the one balance ($credits) and what shows it: the nav badge and a credits page's balance text. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, setApiClient } from '../client/api';
import { showBalance, showCreditBadge, type CreditBadgeElement } from '../client/nav-badge';
import { $credits, initCredits, setCredits } from '../stores/credits';
import { loadUser, type User } from '../stores/user';
import { startClient, type BootEnv } from './boot';

function fakeBadge(): CreditBadgeElement & { attributes: Map<string, string> } {
  const attributes = new Map<string, string>();
  return {
    attributes,
    hidden: true,
    textContent: '',
    className: 'badge rounded-pill',
    dataset: { labels: JSON.stringify({ one: '{count} credit left', other: '{count} credits left' }) },
    setAttribute: (name, value) => void attributes.set(name, value),
    removeAttribute: (name) => void attributes.delete(name),
  };
}

const balanceText = () => ({
  textContent: 'Your balance: 1,200 credits.',
  dataset: { labels: JSON.stringify({ one: 'Your balance: {{credits}} credit.', other: 'Your balance: {{credits}} credits.' }) },
});

const user = { id: 7, credits: 1200, paid_user: true } as User;

function env(elements: Record<string, unknown>): BootEnv {
  const target = { addEventListener: () => undefined, removeEventListener: () => undefined };
  return {
    window: Object.assign({ location: { href: 'http://site.test/credits', origin: 'http://site.test', pathname: '/credits', search: '' }, navigator: { onLine: true } }, target),
    document: Object.assign({ title: 'Credits', visibilityState: 'visible' as DocumentVisibilityState, getElementById: (id: string) => (elements[id] ?? null) as never }, target),
    navigator: { sendBeacon: () => true } as never,
    location: { href: 'http://site.test/credits', origin: 'http://site.test', pathname: '/credits', search: '' },
    storage: null,
    clock: { setTimeout: () => 0, clearTimeout: () => undefined },
    now: () => 0,
    reload: () => undefined,
  } as unknown as BootEnv;
}

beforeEach(() => $credits.set(null));
afterEach(() => setApiClient(undefined));

describe('$credits', () => {
  it('CRD-01 the rendered balance is taken only while none is known; answers set it', () => {
    initCredits(30);
    expect($credits.get()).toBe(30);
    setCredits(25);
    initCredits(30);
    expect($credits.get()).toBe(25);
    setCredits(Number.NaN);
    expect($credits.get()).toBe(25);
  });

  it('CLI-08 reloading the member brings their balance', async () => {
    setApiClient(
      createApiClient({
        baseUrl: 'http://site.test',
        onAuthenticationRequired: () => undefined,
        fetch: async () => new Response(JSON.stringify({ ...user, credits: 9 }), { headers: { 'content-type': 'application/json' } }),
      }),
    );
    setCredits(40);
    await loadUser();
    expect($credits.get()).toBe(9);
  });

  it('NAV-02 the credits badge shows 10 or less, amber above 0 and red at 0, and hides above 10', () => {
    const badge = fakeBadge();
    showCreditBadge(badge, 4, 'en');
    expect([badge.hidden, badge.textContent, badge.className]).toEqual([false, '4', 'badge rounded-pill bg-warning text-dark']);
    expect(Object.fromEntries(badge.attributes)).toEqual({ 'data-badge': 'credits', 'data-variant': 'warning', 'aria-label': '4 credits left' });
    showCreditBadge(badge, 0, 'en');
    expect([badge.hidden, badge.textContent, badge.className, badge.attributes.get('data-variant')]).toEqual([false, '0', 'badge rounded-pill bg-danger', 'danger']);
    showCreditBadge(badge, 11, 'en');
    expect([badge.hidden, badge.textContent, badge.className, badge.attributes.size]).toEqual([true, '', 'badge rounded-pill', 0]);
  });

  it('CRD-01 a credits page says the balance in its plural form with the number formatted for the language', () => {
    const text = balanceText();
    showBalance(text, 1, 'en');
    expect(text.textContent).toBe('Your balance: 1 credit.');
    showBalance(text, 2500, 'nl');
    expect(text.textContent).toBe('Your balance: 2.500 credits.');
  });

  it('NAV-02 CRD-01 at boot the nav badge and the balance text follow $credits: a spend in the chat moves them', () => {
    const badge = fakeBadge();
    const balance = balanceText();
    const stop = startClient({ user: { ...user, credits: 12 }, lang: 'en', title: 'Credits' }, env({ 'credits-badge': badge, 'credits-balance': balance }));
    expect($credits.get()).toBe(12);
    expect(badge.hidden).toBe(true);
    expect(balance.textContent).toBe('Your balance: 12 credits.');
    setCredits(7);
    expect([badge.hidden, badge.textContent]).toEqual([false, '7']);
    expect(balance.textContent).toBe('Your balance: 7 credits.');
    stop();
    setCredits(3);
    expect(badge.textContent).toBe('7');
  });
});
