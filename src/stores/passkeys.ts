/**
 * Passkeys in the browser (PASS-01): adding one in the settings (`POST /api/passkeys.php?options=1`, the
 * browser makes it, `POST /api/passkeys.php`), and logging in with one on the login page
 * (`POST /api/passkey-login.php?options=1`, the browser signs, `POST /api/passkey-login.php`), either
 * from the e-mail field's autofill (conditional UI, started when the page loads) or from a button.
 * Every action takes a {@link WebAuthnEnv} (the browser's by default) so tests pass a fake one.
 */
import { map } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import { browserWebAuthn, CeremonyError, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON, type WebAuthnEnv } from '../client/webauthn';
import type { components } from '../shared/api-types';

/** Why an action did not work: the API's code, `network`, or the browser's (`cancelled`, `browser`, `unsupported`). */
export type PasskeyError = FailureReason | 'cancelled' | 'browser' | 'unsupported';

export interface PasskeyActionState {
  busy: boolean;
  error: PasskeyError | null;
}

export const $passkeyAdd = map<PasskeyActionState>({ busy: false, error: null });
export const $passkeyLogin = map<PasskeyActionState>({ busy: false, error: null });

type Credential = components['schemas']['WebAuthnCredential'];
type Outcome = { type: 'ok' } | { type: 'error'; reason: PasskeyError };

function errorOf(err: unknown): PasskeyError {
  if (isAuthenticationRequired(err)) throw err;
  if (err instanceof CeremonyError) return err.failure;
  return 'network';
}

/** Adds a passkey for the signed-in member under `name` (empty: the server names it by the day). */
export async function addPasskey(name: string, env: WebAuthnEnv = browserWebAuthn()): Promise<Outcome> {
  if (!env.supported()) return settle($passkeyAdd, 'unsupported');
  $passkeyAdd.set({ busy: true, error: null });
  try {
    const options = await api.POST('/api/passkeys.php?options=1');
    if (!options.data) return settle($passkeyAdd, failureReason(options.error));
    const response = await env.create(options.data as unknown as PublicKeyCredentialCreationOptionsJSON);
    const added = await api.POST('/api/passkeys.php', { body: { name, response: response as unknown as Credential } });
    if (!added.data) return settle($passkeyAdd, failureReason(added.error));
    $passkeyAdd.set({ busy: false, error: null });
    return { type: 'ok' };
  } catch (err) {
    return settle($passkeyAdd, errorOf(err));
  }
}

function settle(store: typeof $passkeyAdd, reason: PasskeyError): { type: 'error'; reason: PasskeyError } {
  store.set({ busy: false, error: reason });
  return { type: 'error', reason };
}

/**
 * Logs in with a passkey. `autofill`: offered in the e-mail field's suggestions and waiting quietly (no
 * busy state, and a closed or replaced request is no error); else a dialog of its own, which ends the
 * waiting autofill request first.
 */
export async function loginWithPasskey(autofill: boolean, env: WebAuthnEnv = browserWebAuthn()): Promise<Outcome> {
  if (!env.supported()) return autofill ? { type: 'error', reason: 'unsupported' } : settle($passkeyLogin, 'unsupported');
  if (autofill && !(await env.autofillSupported())) return { type: 'error', reason: 'unsupported' };
  if (!autofill) {
    env.cancel();
    $passkeyLogin.set({ busy: true, error: null });
  }
  try {
    const options = await api.POST('/api/passkey-login.php?options=1');
    if (!options.data) return settle($passkeyLogin, failureReason(options.error));
    const response = await env.get(options.data as unknown as PublicKeyCredentialRequestOptionsJSON, autofill);
    $passkeyLogin.set({ busy: true, error: null });
    const done = await api.POST('/api/passkey-login.php', { body: { response: response as unknown as Credential } });
    if (!done.data) return settle($passkeyLogin, failureReason(done.error));
    // Stays busy: the page is about to go on to where the member was headed.
    return { type: 'ok' };
  } catch (err) {
    const reason = errorOf(err);
    if (autofill && reason === 'cancelled') return { type: 'error', reason };
    return settle($passkeyLogin, reason);
  }
}

export const $staffPasskey = map<PasskeyActionState>({ busy: false, error: null });

/**
 * The back office's ceremonies (PASS-01): options for `purpose` from `POST /admin/passkey-options`, then
 * the browser makes a passkey (register) or signs with one (login). The answer, as JSON text, goes into
 * the page's form, which the server checks like any other form post.
 */
export async function staffPasskeyAnswer(purpose: 'login' | 'register', env: WebAuthnEnv = browserWebAuthn()): Promise<{ type: 'ok'; json: string } | { type: 'error'; reason: PasskeyError }> {
  if (!env.supported()) return settle($staffPasskey, 'unsupported');
  $staffPasskey.set({ busy: true, error: null });
  try {
    const options = await api.POST('/admin/passkey-options', { body: { purpose } });
    if (!options.data) return settle($staffPasskey, failureReason(options.error));
    const answer =
      purpose === 'register'
        ? await env.create(options.data as unknown as PublicKeyCredentialCreationOptionsJSON)
        : await env.get(options.data as unknown as PublicKeyCredentialRequestOptionsJSON, false);
    // Stays busy: the form is about to be sent.
    return { type: 'ok', json: JSON.stringify(answer) };
  } catch (err) {
    return settle($staffPasskey, errorOf(err));
  }
}
