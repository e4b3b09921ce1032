/**
 * Push notification settings (PUSH-01, SET-01): the push state of this browser and a button to turn
 * push on or off. The state and the browser work live in the `$push` store (src/stores/push.ts); this island
 * only renders them.
 */
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $push, initPush, subscribePush, unsubscribePush } from '../../stores/push';

export interface PushSettingsProps {
  messages: Messages;
  /** The site's VAPID public key (settings `push_public_key`). */
  publicKey: string | null;
  userId: number;
}

export default function PushSettings({ messages, publicKey, userId }: PushSettingsProps) {
  const t = createClientTranslator(messages, 'push');
  // Hydration must see what the server rendered: the store's initial 'loading'. The alerts script
  // of the page has usually worked out the push state before this island scrolls into view
  // (`client:visible`); reading that state during hydration rendered a different text than the server
  // did (React #418). With `ssr: 'initial'` React hydrates from the initial value and re-renders with
  // the browser's state right after.
  const push = useStore($push, { ssr: 'initial' });

  useEffect(() => {
    if ($push.get().status === 'loading') void initPush({ userId });
  }, [userId]);

  const { status, busy, error } = push;
  const canToggle = status === 'subscribed' || status === 'not_subscribed';
  return (
    <div className="push-settings" data-push-settings data-push-status={status}>
      <p className="mb-2" role="status" aria-live="polite" data-push-state>
        {t(`status_${status === 'loading' ? 'loading' : status}`)}
      </p>
      {error && status !== 'denied' && (
        <p className="text-danger small mb-2" role="alert">
          {t('error')}
        </p>
      )}
      {canToggle && (
        <button
          type="button"
          className={status === 'subscribed' ? 'btn btn-outline-secondary' : 'btn btn-primary'}
          disabled={busy}
          aria-busy={busy}
          data-push-toggle
          onClick={() => void (status === 'subscribed' ? unsubscribePush() : subscribePush({ publicKey }))}
        >
          {busy ? t('busy') : status === 'subscribed' ? t('unsubscribe') : t('subscribe')}
        </button>
      )}
    </div>
  );
}
