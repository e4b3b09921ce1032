/** A signup form's store against a fake API (what moved out of the SignupForm island). */
import { afterEach, describe, expect, it } from 'vitest';
import { setApiClient } from '../client/api';
import { installTestApi } from '../../tests/setup/test-api';
import { createSignup, type SignupRequest } from './signup';

const request: SignupRequest = { email: 'anna@example.test', name: 'Anna', password: 'geheim123', date_of_birth: '1990-01-01', gender: 'female', looking_for: 'male', public_profile: false };

function fakeApi(answer: () => { status: number; body: unknown } | 'offline') {
  const sent: { headers: Headers; body: unknown }[] = [];
  installTestApi(async (input) => {
    const r = input as Request;
    sent.push({ headers: r.headers, body: await r.json() });
    const a = answer();
    if (a === 'offline') throw new TypeError('offline');
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  });
  return sent;
}

afterEach(() => setApiClient(undefined));

describe('signup store', () => {
  it('SIGN-03 posts the form as JSON with the client request-type header; 201 is signed up (stays busy while the page moves on)', async () => {
    const sent = fakeApi(() => ({ status: 201, body: { id: 5 } }));
    const signup = createSignup();
    expect(await signup.submit({ ...request, invitation: 'tok' })).toEqual({ type: 'ok' });
    expect(sent[0]!.headers.get('x-requested-with')).toBe('XMLHttpRequest');
    expect(sent[0]!.body).toEqual({ ...request, invitation: 'tok' });
    expect(signup.$signup.get().status).toBe('busy');
  });

  it("SIGN-04 a refusal shows each field's message and the e-mail suggestion; a taken suggestion goes", async () => {
    fakeApi(() => ({ status: 400, body: { error: 'validation_failed', message: 'x', field_messages: { email: 'Check it' }, suggestion: 'anna@gmail.com' } }));
    const signup = createSignup({ errors: { name: 'old' } });
    expect(signup.$signup.get().errors).toEqual({ name: 'old' });
    expect(await signup.submit(request)).toEqual({ type: 'refused' });
    expect(signup.$signup.get()).toEqual({ status: 'idle', errors: { email: 'Check it' }, suggestion: 'anna@gmail.com', refusal: null });
    signup.clearSuggestion();
    expect(signup.$signup.get().suggestion).toBeNull();
  });

  it('SIGN-03 a refusal of the whole form carries its message; no answer is a refusal without one', async () => {
    fakeApi(() => ({ status: 403, body: { error: 'signups_closed', message: 'Closed' } }));
    const signup = createSignup();
    await signup.submit(request);
    expect(signup.$signup.get()).toMatchObject({ status: 'idle', errors: {}, refusal: { message: 'Closed' } });
    fakeApi(() => 'offline');
    await signup.submit(request);
    expect(signup.$signup.get()).toMatchObject({ status: 'idle', refusal: { message: null } });
  });

  it('SIGN-03 two forms on one page keep their own errors', async () => {
    fakeApi(() => ({ status: 400, body: { error: 'validation_failed', field_messages: { name: 'Too short' } } }));
    const page = createSignup();
    const modal = createSignup();
    await modal.submit(request);
    expect(modal.$signup.get().errors).toEqual({ name: 'Too short' });
    expect(page.$signup.get().errors).toEqual({});
  });
});
