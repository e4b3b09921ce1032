/**
 * LAY-02: nothing opens over the adult-content entry warning (src/components/EntryWarning.astro). A
 * modal in the top layer (`showModal`) would sit above it whatever its z-index and cover its 'I am 18 or
 * older' button, so every modal, pop-up and toast a page opens by itself waits here until the warning is
 * gone. Accepting it reloads the page (a form post), so on that page the wait simply never ends and the
 * like, match or offer stays unshown for the next one; a warning taken away in place lets it run then.
 */
export const ENTRY_WARNING_SELECTOR = '[data-entry-warning]';

/** Runs `open` now when the page shows no entry warning, else once the warning has left the page. */
export function afterEntryWarning(doc: Document, open: () => void): void {
  const warning = doc.querySelector(ENTRY_WARNING_SELECTOR);
  if (!warning) return open();
  const observer = new MutationObserver(() => {
    if (warning.isConnected) return;
    observer.disconnect();
    open();
  });
  observer.observe(doc.body, { childList: true, subtree: true });
}
