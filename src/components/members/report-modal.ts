/**
 * Opens the report sheet (SAFE-01, ReportSheet.astro) from any `[data-report-open]` link on the page —
 * the profile's and the chat's 'Report', a message's safety notice (rendered live by the chat island, so
 * the click is caught on the document) — instead of following the link (the no-JavaScript path). The
 * link's `data-report-message` goes into the form; focus starts on 'also block' (not on a reason: Enter would send it) and returns to the
 * link when the sheet closes; the backdrop closes it.
 */
export function wireReportModal(doc: Document): void {
  const dialog = doc.getElementById('report-modal');
  if (!(dialog instanceof HTMLDialogElement) || typeof dialog.showModal !== 'function') return;
  const field = dialog.querySelector<HTMLInputElement>('[data-report-message-field]');
  const note = dialog.querySelector<HTMLElement>('[data-report-message-note]');
  let opener: HTMLElement | null = null;
  doc.addEventListener('click', (event) => {
    const trigger = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-report-open]') : null;
    if (!trigger) return;
    event.preventDefault();
    const message = trigger.dataset.reportMessage ?? '';
    if (field) field.value = message;
    if (note) note.hidden = message === '';
    opener = trigger;
    if (dialog.open) dialog.close();
    dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-report-block]')?.focus();
  });
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => opener?.focus());
}
