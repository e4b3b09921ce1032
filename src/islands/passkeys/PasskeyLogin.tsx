/**
 * Logging in with a passkey on the login page (PASS-01): once the island runs, the browser offers this
 * site's passkeys in the e-mail field's suggestions (conditional UI: `autocomplete="username webauthn"`),
 * and a button asks for one in a dialog. The island (React and all) loads when the visitor first reaches
 * for the e-mail field or the button (client:interaction, decision 048), so the login page's first paint
 * carries none of it. The password form stays as it is. The work and
 * its state live in the passkey store (src/stores/passkeys.ts); logged in, the page goes on to `next`.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $passkeyLogin, loginWithPasskey } from '../../stores/passkeys';
import { ISLAND_READY_EVENT } from '../../shared/island-ready';

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

  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // client:interaction (decision 048): a press on the button before this point is played again now.
    rootRef.current?.dispatchEvent(new Event(ISLAND_READY_EVENT, { bubbles: true }));
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
    <div className="passkey-login mt-3" data-passkey-login ref={rootRef}>
      {error && (
        <p className="text-danger small" role="alert" data-passkey-login-error={error}>
          {t(ERROR_TEXT[error] ?? 'passkey_error_other')}
        </p>
      )}
      <button type="button" className="btn btn-outline-primary w-100" disabled={busy} aria-busy={busy} onClick={() => void withButton()} data-passkey-login-button>
        {busy ? t('passkey_busy') : t('passkey_button')}
      </button>
    </div>
  );
}
