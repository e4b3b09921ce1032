/**
 * The icebreaker modal of the chat (CHT-07): a Bootstrap-styled native <dialog> listing opening lines in
 * the member's language (`icebreakers(lang)` on the server). Choosing one calls `onPick(text)` and
 * closes; Escape, the close button and a click on the backdrop close it (`onClose`). While open, Tab stays
 * inside (showModal makes the page behind inert; the handler below wraps Tab at the ends) and on closing
 * focus returns to the element that had it before.
 */
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { FOCUSABLE, trapTab } from './grid';

export interface IcebreakerModalProps {
  /** `messagesFor(lang, ['chat'])`. */
  messages: Messages;
  /** The opening lines, `icebreakers(lang)`. */
  lines: string[];
  open: boolean;
  onPick: (text: string) => void;
  onClose: () => void;
}

export default function IcebreakerModal({ messages, lines, open, onPick, onClose }: IcebreakerModalProps) {
  const t = createClientTranslator(messages, 'chat');
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      element.querySelector<HTMLElement>('[data-icebreaker]')?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  // Focus goes back to where it was, however the dialog closed.
  const onDialogClose = () => {
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
    if (open) onClose();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const next = trapTab(focusable.indexOf(document.activeElement as HTMLElement), focusable.length, event.shiftKey);
    if (next < 0) return;
    event.preventDefault();
    focusable[next]!.focus();
  };

  return (
    <dialog
      ref={dialog}
      className="chat-modal"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      onClose={onDialogClose}
      onCancel={(e) => {
        // Escape: close through the same path as the button.
        e.preventDefault();
        dialog.current?.close();
      }}
      onClick={(e) => {
        if (e.target === dialog.current) dialog.current?.close();
      }}
      onKeyDown={onKeyDown}
    >
      <div className="modal-content">
        <div className="modal-header">
          <h2 id={`${id}-title`} className="modal-title h5">
            {t('icebreakers_title')}
          </h2>
          <button type="button" className="btn-close" aria-label={t('close')} onClick={() => dialog.current?.close()} />
        </div>
        <div className="modal-body">
          <p id={`${id}-intro`} className="text-body-secondary small">
            {t('icebreakers_intro')}
          </p>
          <ul className="list-group">
            {lines.map((line) => (
              <li key={line} className="list-group-item p-0">
                <button
                  type="button"
                  data-icebreaker
                  className="btn btn-link text-start text-decoration-none w-100 px-3 py-2"
                  onClick={() => {
                    onPick(line);
                    dialog.current?.close();
                  }}
                >
                  {line}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </dialog>
  );
}
