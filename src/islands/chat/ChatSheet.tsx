/**
 * A sheet of the chat (CHT-07, issue 25): a native <dialog class="sheet">, a bottom sheet on a phone and
 * a centred modal from 576 px (src/styles/_components.scss). Open while `open`; Escape, the close button
 * and a click on the backdrop close it (`onClose`). While open, Tab stays inside (showModal makes the
 * page behind inert; the handler wraps Tab at the ends) and on closing focus returns to where it was.
 * The body is rendered only while open (a picker loads what it shows when it opens).
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { FOCUSABLE, trapTab } from './grid';
import { Icon } from './icons';

export interface ChatSheetProps {
  title: string;
  /** The close button's label. */
  closeLabel: string;
  open: boolean;
  onClose: () => void;
  /** A line under the title (the dialog's description). */
  intro?: string;
  /** A `data-…` attribute on the body, for tests and styles. */
  bodyData?: string;
  /** The element to focus on opening (a selector inside the sheet); the first focusable one otherwise. */
  focus?: string;
  children: ReactNode;
}

export default function ChatSheet({ title, closeLabel, open, onClose, intro, bodyData, focus, children }: ChatSheetProps) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      const first = (focus ? element.querySelector<HTMLElement>(focus) : null) ?? element.querySelector<HTMLElement>('.sheet-body button:not([disabled]), .sheet-body input:not([disabled])');
      first?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, focus]);

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
      className="sheet chat-sheet"
      aria-labelledby={`${id}-title`}
      aria-describedby={intro ? `${id}-intro` : undefined}
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
      <div className="sheet-handle" aria-hidden="true" />
      <div className="sheet-header">
        <h2 id={`${id}-title`} className="sheet-title">
          {title}
        </h2>
        <button type="button" className="chat-icon-button" onClick={() => dialog.current?.close()}>
          <Icon name="close" />
          <span className="visually-hidden">{closeLabel}</span>
        </button>
      </div>
      <div className="sheet-body" {...(bodyData ? { [`data-${bodyData}`]: '' } : {})}>
        {intro && (
          <p id={`${id}-intro`} className="chat-sheet-intro">
            {intro}
          </p>
        )}
        {open && children}
      </div>
    </dialog>
  );
}
