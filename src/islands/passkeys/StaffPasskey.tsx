/**
 * The back office's passkey button (PASS-01): on the staff login it signs with a passkey instead of the
 * code, on /admin/passkeys it makes a new one. The browser's answer goes into the hidden field
 * `field` of the form `form`, which is then sent as a plain form post. The ceremony lives in the passkey
 * store (src/stores/passkeys.ts). The island loads when the button is first reached for (client:interaction).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $staffPasskey, staffPasskeyAnswer } from '../../stores/passkeys';
import { ISLAND_READY_EVENT } from '../../shared/island-ready';

export interface StaffPasskeyProps {
  messages: Messages;
  purpose: 'login' | 'register';
  /** The id of the form to send, and the name of its hidden field for the answer. */
  form: string;
  field: string;
  /** The keys of the button's label and of the error text (namespace `staff`). */
  label: string;
  error: string;
}

export default function StaffPasskey({ messages, purpose, form, field, label, error: errorKey }: StaffPasskeyProps) {
  const t = createClientTranslator(messages, 'staff');
  const { busy, error } = useStore($staffPasskey);
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // client:interaction (decision 048): a press on the button before this point is played again now.
    rootRef.current?.dispatchEvent(new Event(ISLAND_READY_EVENT, { bubbles: true }));
  }, []);

  const run = async () => {
    const result = await staffPasskeyAnswer(purpose);
    if (result.type !== 'ok') return;
    const target = document.getElementById(form);
    if (!(target instanceof HTMLFormElement)) return;
    const input = target.elements.namedItem(field);
    if (input instanceof HTMLInputElement) input.value = result.json;
    target.requestSubmit();
  };

  return (
    <div className="mt-3" data-staff-passkey={purpose} ref={rootRef}>
      {error && error !== 'cancelled' && (
        <p className="text-danger small" role="alert" data-staff-passkey-error={error}>
          {t(errorKey)}
        </p>
      )}
      <button type="button" className="btn btn-outline-primary w-100" disabled={busy} aria-busy={busy} onClick={() => void run()} data-staff-passkey-button>
        {busy ? t('passkey_busy') : t(label)}
      </button>
    </div>
  );
}
