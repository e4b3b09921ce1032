import { describe, expect, it, vi } from 'vitest';
import { $push } from '../../stores/push';
import { bindLogout } from './alerts-client';

function setup() {
  let listener!: (e: unknown) => void;
  const doc = { addEventListener: (_t: string, l: (e: unknown) => void) => (listener = l) };
  const assign = vi.fn();
  const unsubscribe = vi.fn(async () => ({}));
  bindLogout(doc as never, { location: { assign } }, unsubscribe);
  const link = { href: 'http://localhost/api/logout.php' };
  const click = () => {
    const event = { target: { closest: (s: string) => (s === 'a[data-logout]' ? link : null) }, preventDefault: vi.fn() };
    listener(event);
    return event;
  };
  return { assign, unsubscribe, click };
}

describe('logout and push', () => {
  it('PUSH-01 logging out ends this browser’s push subscription before leaving', async () => {
    $push.set({ status: 'subscribed', busy: false, error: null });
    const { assign, unsubscribe, click } = setup();
    const event = click();
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/api/logout.php'));
    expect(unsubscribe).toHaveBeenCalledOnce();
  });

  it('PUSH-01 without a subscription the logout link works as a plain link', () => {
    $push.set({ status: 'not_subscribed', busy: false, error: null });
    const { unsubscribe, click } = setup();
    const event = click();
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(unsubscribe).not.toHaveBeenCalled();
  });
});
