/**
 * The signed-in member (`$user`) and the interface language, with the actions that talk to
 * `/api/user.php`: reload (AUTH-01, refreshed periodically by CLI-08; the balance goes to `$credits`), language change (I18N-03), and
 * clearing on logout (CLI-02).
 */
import { atom } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, whenAuthenticationRequired, type FailureReason } from '../client/api';
import type { components } from '../shared/api-types';
import { setCredits } from './credits';

export type User = components['schemas']['User'];
export type Language = components['schemas']['Language'];

/** The signed-in member, or null for a visitor. */
export const $user = atom<User | null>(null);

/** The interface language of the page (set at boot, changed by {@link setLanguage}). */
export const $language = atom<Language | null>(null);

export type LoadUserResult = { type: 'ok'; user: User } | { type: 'logged_out' } | { type: 'error'; reason: FailureReason };

export type SetLanguageResult =
  | { type: 'ok'; user: User }
  /** No member is signed in: nothing is sent (a visitor's language lives in the cookie only). */
  | { type: 'logged_out' }
  | { type: 'error'; reason: FailureReason };

/**
 * Reloads the member with `GET /api/user.php`. A 403 means nobody is signed in: `$user` becomes
 * null. Other failures leave `$user` as it was (a flaky network must not log anyone out).
 */
export async function loadUser(): Promise<LoadUserResult> {
  return userAnswer(
    () => api.GET('/api/user.php'),
    (user) => setCredits(user.credits),
  );
}

/**
 * One answer of `/api/user.php`: the member is kept (`keep` does the rest), a 403 means nobody is signed
 * in (`$user` becomes null), other failures change nothing; an expired session still logs out (CLI-02).
 */
async function userAnswer(call: () => Promise<{ data?: User; error?: unknown; response: Response }>, keep: (user: User) => void): Promise<LoadUserResult> {
  try {
    const { data, error, response } = await call();
    if (data) {
      $user.set(data);
      keep(data);
      return { type: 'ok', user: data };
    }
    if (response.status === 403) {
      $user.set(null);
      return { type: 'logged_out' };
    }
    return { type: 'error', reason: failureReason(error) };
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    return { type: 'error', reason: 'network' };
  }
}

/**
 * Changes the interface language (I18N-03). For a signed-in member it is sent with
 * `PUT /api/user.php {language}` (with the client request-type header), so the server stores it for
 * their e-mails and sets the language cookie; `$user` and `$language` take the answer.
 */
export async function setLanguage(language: Language): Promise<SetLanguageResult> {
  if (!$user.get()) return { type: 'logged_out' };
  return userAnswer(
    () => api.PUT('/api/user.php', { params: { header: { 'X-Requested-With': 'XMLHttpRequest' } }, body: { language } }),
    (user) => $language.set(user.language),
  );
}

/** Forgets the member (logout, CLI-02). */
export function clearUser(): void {
  $user.set(null);
}

// CLI-02: a call answered `authentication_required` means the session is gone: forget the member.
whenAuthenticationRequired(clearUser);
