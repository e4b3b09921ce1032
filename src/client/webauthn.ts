/**
 * The browser's WebAuthn (PASS-01), through @simplewebauthn/browser: make a passkey, use one (in a
 * dialog, or offered in the e-mail field's autofill: conditional UI), and what the browser can do.
 * Transport only; the passkey store decides what a result means.
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** How a browser ceremony failed: the person closed it (or it was replaced), or the browser refused. */
export type CeremonyFailure = 'cancelled' | 'browser';

export class CeremonyError extends Error {
  constructor(public readonly failure: CeremonyFailure) {
    super(failure);
    this.name = 'CeremonyError';
  }
}

function failureOf(err: unknown): CeremonyError {
  const name = err instanceof Error ? err.name : '';
  // NotAllowedError: closed, timed out or refused by the person; AbortError: replaced by another ceremony.
  return new CeremonyError(name === 'NotAllowedError' || name === 'AbortError' ? 'cancelled' : 'browser');
}

/** The browser side of the ceremonies; tests pass fakes. */
export interface WebAuthnEnv {
  supported(): boolean;
  autofillSupported(): Promise<boolean>;
  create(options: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON>;
  get(options: PublicKeyCredentialRequestOptionsJSON, autofill: boolean): Promise<AuthenticationResponseJSON>;
  /** Ends a waiting autofill request (before a dialog of its own, or leaving the page). */
  cancel(): void;
}

export function browserWebAuthn(): WebAuthnEnv {
  return {
    supported: () => browserSupportsWebAuthn(),
    autofillSupported: () => browserSupportsWebAuthnAutofill(),
    create: async (optionsJSON) => {
      try {
        return await startRegistration({ optionsJSON });
      } catch (err) {
        throw failureOf(err);
      }
    },
    get: async (optionsJSON, autofill) => {
      try {
        return await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
      } catch (err) {
        throw failureOf(err);
      }
    },
    cancel: () => WebAuthnAbortService.cancelCeremony(),
  };
}

export type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON };
