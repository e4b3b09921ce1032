import { describe, expect, it, vi } from 'vitest';
import { $push } from '../../stores/push';
import { bindLogout } from './alerts-client';

function setup() {
  let listener!: (e: unknown) => void;
  let type = '';
  const doc = {
    addEventListener: (t: string, l: (e: unknown) => void) => {
      type = t;
      listener = l;
    },
  };
  const unsubscribe = vi.fn(async () => ({}));
  bindLogout(doc as never, unsubscribe);
  const form = { matches: (s: string) => s === 'form[data-logout]', submit: vi.fn() };
  const submit = (target: unknown = form) => {
    const event = { target, preventDefault: vi.fn() };
    listener(event);
    return event;
  };
  return { unsubscribe, submit, form, type: () => type };
}

describe('logout and push', () => {
  it('PUSH-01 SEC-12 logging out ends this browser’s push subscription before the logout form is posted', async () => {
    $push.set({ status: 'subscribed', busy: false, error: null });
    const { unsubscribe, submit, form, type } = setup();
    expect(type()).toBe('submit');
    const event = submit();
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(form.submit).toHaveBeenCalledOnce());
    expect(unsubscribe).toHaveBeenCalledOnce();
  });

  it('PUSH-01 the logout form is posted even when the push service fails', async () => {
    $push.set({ status: 'subscribed', busy: false, error: null });
    const { unsubscribe, submit, form } = setup();
    unsubscribe.mockRejectedValueOnce(new Error('push service down'));
    submit();
    await vi.waitFor(() => expect(form.submit).toHaveBeenCalledOnce());
  });

  it('PUSH-01 without a subscription the logout form posts as it is; other forms are left alone', () => {
    $push.set({ status: 'not_subscribed', busy: false, error: null });
    const { unsubscribe, submit } = setup();
    expect(submit().preventDefault).not.toHaveBeenCalled();
    $push.set({ status: 'subscribed', busy: false, error: null });
    expect(submit({ matches: () => false, submit: vi.fn() }).preventDefault).not.toHaveBeenCalled();
    expect(unsubscribe).not.toHaveBeenCalled();
  });
});
