/**
 * Desktop signup modal (SIGN-01): opens from any `[data-signup-entry]` link on screens 992 px and wider
 * (smartphones and tablets follow the link to /signup). While signup is in progress neither Escape nor a
 * click on the backdrop closes it. Loaded on the first interaction with an entry (client:interaction, PERF-02).
 */
import { useEffect, useRef, useState } from 'react';
import { ISLAND_READY_EVENT } from '../../client/directives/interaction';
import { createClientTranslator } from '../../i18n/client';
import SignupForm, { type SignupFormProps } from './SignupForm';

export const DESKTOP_QUERY = '(min-width: 992px)';

export default function SignupModal(props: Omit<SignupFormProps, 'onBusyChange'>) {
  const t = createClientTranslator(props.messages, 'signup');
  const dialog = useRef<HTMLDialogElement>(null);
  const busy = useRef(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[data-signup-entry]');
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      if (!window.matchMedia(DESKTOP_QUERY).matches) return;
      event.preventDefault();
      setOpen(true);
      dialog.current?.showModal();
    };
    document.addEventListener('click', onClick);
    // Listening now: the click that loaded this island (client:interaction) may be played again.
    dialog.current?.dispatchEvent(new Event(ISLAND_READY_EVENT, { bubbles: true }));
    return () => document.removeEventListener('click', onClick);
  }, []);

  const close = () => {
    if (busy.current) return;
    dialog.current?.close();
    setOpen(false);
  };

  return (
    <dialog
      ref={dialog}
      className="signup-modal"
      aria-labelledby="signup-modal-title"
      data-signup-modal
      onCancel={(e) => {
        // Escape: refused while the account is being created.
        e.preventDefault();
        close();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === dialog.current) close();
      }}
    >
      <div className="signup-modal-body">
        <div className="d-flex justify-content-between align-items-start mb-2">
          <h2 id="signup-modal-title" className="h4 mb-0">{t('title')}</h2>
          <button type="button" className="btn-close" aria-label={t('close')} onClick={close} />
        </div>
        <p className="small">{t('intro')}</p>
        {open && <SignupForm {...props} onBusyChange={(b) => (busy.current = b)} />}
      </div>
    </dialog>
  );
}
