/**
 * A signup form's sending (SIGN-03..06): `POST /api/signup.php` with the client request-type header, and
 * what came back: the message per field, the 'did you mean' suggestion for a mistyped e-mail domain, or
 * a refusal of the whole form. One store per form ({@link createSignup}): the page's form and the
 * signup modal can be on one page, and each shows its own errors.
 */
import { map, type MapStore } from 'nanostores';
import { api, isAuthenticationRequired } from '../client/api';
import type { components } from '../shared/api-types';
import type { SignupErrorAnswer } from '../shared/api/signup';

export interface SignupState {
  status: 'idle' | 'busy';
  /** Field → message. */
  errors: Record<string, string>;
  suggestion: string | null;
  /** The whole form was refused: the server's message, or null when it gave none (say something generic). */
  refusal: { message: string | null } | null;
}

export type SignupRequest = components['schemas']['SignupRequest'];

/** What the signup endpoint answers beside its error code. */
type SignupRefusal = Partial<SignupErrorAnswer>;

export type SignupResult = { type: 'ok' } | { type: 'refused' };

export interface Signup {
  $signup: MapStore<SignupState>;
  /** Sends the form; on 'ok' the member is signed up and logged in (the page moves on). */
  submit(request: SignupRequest): Promise<SignupResult>;
  /** The member took (or dismissed) the suggested address. */
  clearSuggestion(): void;
}

/** A signup form's store, starting from what a post without JavaScript gave (errors, suggestion). */
export function createSignup(initial: { errors?: Record<string, string> | undefined; suggestion?: string | null | undefined } = {}): Signup {
  const $signup = map<SignupState>({ status: 'idle', errors: initial.errors ?? {}, suggestion: initial.suggestion ?? null, refusal: null });

  async function submit(request: SignupRequest): Promise<SignupResult> {
    if ($signup.get().status === 'busy') return { type: 'refused' };
    $signup.set({ ...$signup.get(), status: 'busy', refusal: null });
    try {
      const { response, error } = await api.POST('/api/signup.php', { params: { header: { 'X-Requested-With': 'XMLHttpRequest' } }, body: request });
      if (response.status === 201) return { type: 'ok' };
      const body = (typeof error === 'object' && error !== null ? error : {}) as SignupRefusal;
      $signup.set({ status: 'idle', errors: body.field_messages ?? {}, suggestion: body.suggestion ?? null, refusal: body.field_messages ? null : { message: body.message ?? null } });
    } catch (err) {
      if (isAuthenticationRequired(err)) throw err;
      $signup.set({ ...$signup.get(), status: 'idle', refusal: { message: null } });
    }
    return { type: 'refused' };
  }

  return { $signup, submit, clearSuggestion: () => $signup.setKey('suggestion', null) };
}
