/**
 * Opens the block confirmation (BLK-01) as a sheet (Sheet.astro: a native <dialog>, a bottom sheet on a
 * phone, a centred dialog from 576 px) instead of following the block link (the no-JavaScript
 * confirmation step). The browser keeps focus inside the modal dialog and closes it on Escape; focus
 * starts on the confirm button and returns to the link; the cancel buttons and the backdrop close it.
 */
export function wireBlockModal(doc: Document): void {
  for (const trigger of doc.querySelectorAll<HTMLAnchorElement>('a[data-block-modal]')) {
    const dialog = doc.getElementById(trigger.dataset.blockModal ?? '');
    if (!(dialog instanceof HTMLDialogElement) || typeof dialog.showModal !== 'function') continue;
    trigger.addEventListener('click', (event) => {
      event.preventDefault();
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-confirm-block]')?.focus();
    });
    for (const button of dialog.querySelectorAll('[data-dismiss-modal]')) button.addEventListener('click', () => dialog.close());
    // A press on the backdrop lands on the dialog element itself, outside its content.
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) dialog.close();
    });
    dialog.addEventListener('close', () => trigger.focus());
  }
}
