/**
 * Opens a sheet (a native <dialog class="sheet">, Sheet.astro) from any `[data-sheet-open="<id>"]`
 * control: as a modal, so the page behind is inert, Escape closes it and focus returns to the control.
 * A press on the backdrop (the dialog itself, outside its content) closes it too.
 */
export function wireSheets(doc: Document): void {
  doc.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const opener = target?.closest?.<HTMLElement>('[data-sheet-open]');
    if (opener) {
      const sheet = doc.getElementById(opener.dataset.sheetOpen ?? '');
      if (sheet instanceof HTMLDialogElement && !sheet.open) {
        event.preventDefault();
        sheet.showModal();
      }
      return;
    }
    if (target instanceof HTMLDialogElement && target.classList.contains('sheet') && target.open) target.close();
  });
}
