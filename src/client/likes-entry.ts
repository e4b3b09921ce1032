/**
 * Loads the match modal and like pop-up code (like-modals.ts) once the browser is idle, so it never
 * competes with the page's first paint and stays out of the eager bundle.
 */
const start = () => void import('./like-modals').then((m) => m.startLikeModals(window));
if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
else setTimeout(start, 1000);
