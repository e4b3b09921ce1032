/**
 * Desktop signup modal (SIGN-01): opens from any `[data-signup-entry]` link on screens 992 px and wider
 * (smartphones and tablets follow the link to /signup). Once anything is typed (or the account is being
 * created) neither Escape nor a click beside it closes it, and its close button asks first: nothing typed
 * is lost by accident. Loaded on the first interaction with an entry (client:interaction, PERF-02).
 */
import { useEffect, useRef, useState } from 'react';
import { ISLAND_READY_EVENT } from '../../shared/island-ready';
import { createClientTranslator } from '../../i18n/client';
import SignupForm, { type SignupFormProps } from './SignupForm';

export const DESKTOP_QUERY = '(min-width: 992px)';

export default function SignupModal(props: Omit<SignupFormProps, 'onBusyChange'>) {
  const t = createClientTranslator(props.messages, 'signup');
  const dialog = useRef<HTMLDialogElement>(null);
  const busy = useRef(false);
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState(false);

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

  /** Whether the visitor has typed anything into the form (what a close would lose). */
  const typed = () =>
    [...(dialog.current?.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea') ?? [])].some(
      (el) => el.value.trim() !== '',
    );
  const shut = () => {
    setAsking(false);
    dialog.current?.close();
    setOpen(false);
  };
  /** Escape and a click beside the modal: only while signup has not started. */
  const dismiss = () => {
    if (busy.current || typed()) return;
    shut();
  };
  /** The close button: asks first when something was typed. */
  const close = () => {
    if (busy.current) return;
    if (typed()) setAsking(true);
    else shut();
  };

  return (
    <dialog
      ref={dialog}
      className="signup-modal"
      aria-labelledby="signup-modal-title"
      data-signup-modal
      onCancel={(e) => {
        // Escape: refused once signup has started.
        e.preventDefault();
        if (asking) setAsking(false);
        else dismiss();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === dialog.current) dismiss();
      }}
    >
      <div className="signup-modal-body">
        <div className="d-flex justify-content-between align-items-start mb-2">
          <h2 id="signup-modal-title" className="h4 mb-0">
            {t('title')}
          </h2>
          <button type="button" className="btn-close" aria-label={t('close')} onClick={close} />
        </div>
        {asking && (
          <div className="alert alert-warning" role="alertdialog" aria-labelledby="signup-stop-title" aria-describedby="signup-stop-text" data-signup-stop>
            <p id="signup-stop-title" className="fw-semibold mb-1">
              {t('stop_title')}
            </p>
            <p id="signup-stop-text" className="mb-2">
              {t('stop_text')}
            </p>
            <div className="d-flex gap-2 flex-wrap">
              <button type="button" className="btn btn-primary btn-sm" autoFocus onClick={() => setAsking(false)} data-signup-stay>
                {t('stop_stay')}
              </button>
              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={shut} data-signup-leave>
                {t('stop_leave')}
              </button>
            </div>
          </div>
        )}
        <p className="small">{t('intro')}</p>
        {open && <SignupForm {...props} onBusyChange={(b) => (busy.current = b)} />}
      </div>
    </dialog>
  );
}
