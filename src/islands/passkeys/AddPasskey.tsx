/**
 * Adding a passkey in the settings (PASS-01): an optional name and a button; the browser asks for the
 * device's lock (fingerprint, face, PIN). The work and its state live in the passkey store
 * (src/stores/passkeys.ts); once stored, the page is loaded again with its notice and the new list.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $passkeyAdd, addPasskey } from '../../stores/passkeys';

/** The errors with a text of their own; any other says "that did not work". */
const ERROR_TEXT: Partial<Record<string, string>> = {
  cancelled: 'passkey_error_cancelled',
  unsupported: 'passkey_error_unsupported',
  passkey_exists: 'passkey_error_exists',
  passkey_limit: 'passkey_error_limit',
  network: 'passkey_error_network',
};

export interface AddPasskeyProps {
  messages: Messages;
  /** Where to go once it is stored (the settings with their notice). */
  done: string;
  maxLength: number;
}

export default function AddPasskey({ messages, done, maxLength }: AddPasskeyProps) {
  const t = createClientTranslator(messages, 'settings');
  const { busy, error } = useStore($passkeyAdd);
  const [name, setName] = useState('');
  const id = useId();
  // Until the island runs, the button cannot work: it is rendered disabled and comes alive with the script.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // The hydration flag: true once the handlers are attached (as in the swipe island, decision 048).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setReady(true);
  }, []);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const result = await addPasskey(name);
    if (result.type === 'ok') globalThis.location.assign(done);
  };

  return (
    <form onSubmit={(e) => void submit(e)} data-passkey-add noValidate>
      <div className="mb-3">
        <label className="form-label" htmlFor={`${id}-name`}>
          {t('passkey_name_label')}
        </label>
        <input id={`${id}-name`} className="form-control" name="name" value={name} maxLength={maxLength} autoComplete="off" aria-describedby={`${id}-help`} onChange={(e) => setName(e.target.value)} />
        <div id={`${id}-help`} className="form-text">
          {t('passkey_name_help')}
        </div>
      </div>
      {error && (
        <p className="text-danger small" role="alert" data-passkey-add-error={error}>
          {t(ERROR_TEXT[error] ?? 'passkey_error_other')}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy || !ready} aria-busy={busy}>
        {busy ? t('passkey_adding') : t('passkey_add')}
      </button>
    </form>
  );
}
