import { BROWSER_ARGS, browserPath } from '../../scripts/ensure-chromium';

/**
 * `test.use(FULL_BROWSER)` for the tests of push (PUSH-01, ALR-02): they run in Debian's full Chromium,
 * since the headless shell the other tests use reports notifications as denied whatever was granted,
 * so no page could offer push in it (docs/decisions/096-headless-shell-and-axe-in-the-page.md).
 */
export const FULL_BROWSER = { launchOptions: { executablePath: browserPath('full'), args: BROWSER_ARGS } };
