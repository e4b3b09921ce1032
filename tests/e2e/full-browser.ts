import { BROWSER_ARGS, browserPath } from '../../scripts/ensure-chromium';

/**
 * `test.use(FULL_BROWSER)` at the top of a file whose tests need Debian's full Chromium instead of the
 * headless shell the others use (docs/decisions/096-headless-shell-and-axe-in-the-page.md; Playwright
 * sets the browser per file): push (push.spec.ts), since the shell reports notifications as denied
 * whatever was granted; and a lander nobody has touched (landers-untouched.spec.ts), since the shell
 * sends every new page a pointer over its top left corner, which wakes the swipe deck.
 */
export const FULL_BROWSER = { launchOptions: { executablePath: browserPath('full'), args: BROWSER_ARGS } };
