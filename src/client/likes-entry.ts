/**
 * Starts the match modal and like pop-up (like-modals.ts) once the browser is idle, so they never compete
 * with the page's first paint. Imported statically: a dynamic import would bring Vite's preload helper
 * (~1 kB gzip) into the eager bundle, more than the ~0.8 kB of the code it would defer.
 */
import { startLikeModals } from './like-modals';

const start = () => startLikeModals(window);
if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 });
else setTimeout(start, 1000);
