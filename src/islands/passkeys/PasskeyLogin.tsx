/**
 * Logging in with a passkey on the login page (PASS-01): as soon as the page runs, the browser offers
 * this site's passkeys in the e-mail field's suggestions (conditional UI: `autocomplete="username
 * webauthn"`), and a button asks for one in a dialog. The password form stays as it is. The work and
 * its state live in the passkey store (src/stores/passkeys.ts); logged in, the page goes on to `next`.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $passkeyLogin, loginWithPasskey } from '../../stores/passkeys';

export interface PasskeyLoginProps {
  messages: Messages;
  lang: string;
  /** Where to go once logged in (already checked by the server). */
  next: string;
}

/** The errors with a text of their own; any other says "that did not work". */
const ERROR_TEXT: Partial<Record<string, string>> = {
  cancelled: 'passkey_error_cancelled',
  unsupported: 'passkey_error_unsupported',
  invalid_credentials: 'passkey_error_invalid',
  too_many_attempts: 'passkey_error_too_many_attempts',
  account_deletion_pending: 'passkey_error_deletion_pending',
  network: 'passkey_error_network',
};

export default function PasskeyLogin({ messages, lang, next }: PasskeyLoginProps) {
  const t = createClientTranslator(messages, 'login', lang);
  const { busy, error } = useStore($passkeyLogin);

  // Until the island runs, the button cannot work: it is rendered disabled and comes alive with the script.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // The hydration flag: true once the handlers are attached (as in the swipe island, decision 048).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setReady(true);
    let live = true;
    void loginWithPasskey(true).then((result) => {
      if (!live) return;
      if (result.type === 'ok') globalThis.location.assign(next);
      else if (result.reason === 'account_banned') globalThis.location.assign('/banned');
    });
    return () => {
      live = false;
    };
  }, [next]);

  const withButton = async () => {
    const result = await loginWithPasskey(false);
    if (result.type === 'ok') globalThis.location.assign(next);
    else if (result.reason === 'account_banned') globalThis.location.assign('/banned');
  };

  return (
    <div className="passkey-login mt-3" data-passkey-login>
      {error && (
        <p className="text-danger small" role="alert" data-passkey-login-error={error}>
          {t(ERROR_TEXT[error] ?? 'passkey_error_other')}
        </p>
      )}
      <button type="button" className="btn btn-outline-primary w-100" disabled={busy || !ready} aria-busy={busy} onClick={() => void withButton()} data-passkey-login-button>
        {busy ? t('passkey_busy') : t('passkey_button')}
      </button>
    </div>
  );
}
