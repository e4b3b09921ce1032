/**
 * Opens the block confirmation (BLK-01) as a Bootstrap modal instead of following the block link (the
 * no-JavaScript confirmation step). Bootstrap's markup and classes, without Bootstrap's JavaScript:
 * focus moves into the dialog and back, Escape and the cancel buttons close it, Tab stays inside.
 */
export function wireBlockModal(doc: Document): void {
  for (const trigger of doc.querySelectorAll<HTMLAnchorElement>('a[data-block-modal]')) {
    const modal = doc.getElementById(trigger.dataset.blockModal ?? '');
    if (!modal) continue;
    let backdrop: HTMLElement | null = null;
    const focusable = () => [...modal.querySelectorAll<HTMLElement>('button, a[href], input, [tabindex]:not([tabindex="-1"])')];
    const close = () => {
      modal.classList.remove('show', 'd-block');
      modal.setAttribute('aria-hidden', 'true');
      modal.removeAttribute('aria-modal');
      modal.removeAttribute('role');
      backdrop?.remove();
      backdrop = null;
      doc.body.classList.remove('modal-open');
      trigger.focus();
    };
    const open = () => {
      modal.classList.add('d-block', 'show');
      modal.removeAttribute('aria-hidden');
      modal.setAttribute('aria-modal', 'true');
      modal.setAttribute('role', 'dialog');
      backdrop = doc.createElement('div');
      backdrop.className = 'modal-backdrop fade show';
      doc.body.append(backdrop);
      doc.body.classList.add('modal-open');
      modal.querySelector<HTMLElement>('[data-confirm-block]')?.focus();
    };
    trigger.addEventListener('click', (event) => {
      event.preventDefault();
      open();
    });
    for (const button of modal.querySelectorAll('[data-dismiss-modal]')) button.addEventListener('click', close);
    modal.addEventListener('click', (event) => {
      if (event.target === modal) close();
    });
    modal.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      } else if (event.key === 'Tab') {
        const items = focusable();
        const first = items[0];
        const last = items[items.length - 1];
        if (event.shiftKey && doc.activeElement === first) {
          event.preventDefault();
          last?.focus();
        } else if (!event.shiftKey && doc.activeElement === last) {
          event.preventDefault();
          first?.focus();
        }
      }
    });
  }
}
