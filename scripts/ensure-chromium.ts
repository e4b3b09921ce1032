/**
 * Makes sure the browser tests have their browsers before `npm test` spends minutes on the build. Most
 * browser tests drive Debian's `chromium-headless-shell` (`/usr/bin/chromium-headless-shell`): the
 * headless build Playwright itself uses for headless runs, which renders the same pages with about 45 %
 * less CPU than the full browser in headless mode (docs/decisions/096-headless-shell-and-axe-in-the-page.md).
 * The tests of push, the tests of a lander nobody has touched, and Lighthouse need Debian's full `chromium`
 * (`/usr/bin/chromium`): the shell reports notifications as denied whatever was granted, and sends every
 * new page a pointer of its own (tests/e2e/full-browser.ts). `CHROMIUM_PATH` overrides both. When one is missing and
 * we are root on a machine with apt, its Debian package is installed (noninteractive; only Debian's
 * mirrors and the npm registry are reachable, so no browser is ever downloaded from elsewhere). Where the
 * shell cannot be installed, the full browser runs every test, with more CPU. Where the full browser is
 * missing and cannot be installed, it stops at once with one line saying what to install.
 *
 * HAProxy (Debian's `haproxy`, for the cluster test) is brought the same way when it can be, and left
 * alone when it cannot (that test then skips and says why).
 *
 * Run as `tsx scripts/ensure-chromium.ts [tests|lighthouse]`; the decision is `ensureChromium` with the
 * machine's checks injected, so the unit test exercises every branch without touching the machine.
 * playwright.config.ts asks {@link browserPath} which browser that left in place.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Debian's full Chromium: what Lighthouse measures with, and the tests' fallback. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
/** Debian's headless shell: what the browser tests drive. */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/** Who needs the browser: the end-to-end tests (the headless shell, and the full browser for push) or Lighthouse (the full browser). */
export type BrowserUse = 'tests' | 'lighthouse';

/** The command-line switches the tests launch either browser with: no sandbox (root in a container), no GPU, nothing fetched in the background. */
export const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** What `ensureChromium` may ask of the machine. */
export interface ChromiumMachine {
  /** `CHROMIUM_PATH` from the environment, when set. */
  chromiumPathOverride: string | undefined;
  /** The file exists and may be executed. */
  isExecutable(path: string): boolean;
  isRoot(): boolean;
  /** `apt-get` is on PATH. */
  hasApt(): boolean;
  /** Runs a command with inherited output; its exit status (non-zero when it could not start). */
  run(command: string, args: readonly string[], env: Record<string, string>): number;
  /** A progress line (stderr). */
  say(line: string): void;
}

export type ChromiumOutcome = { type: 'present'; path: string } | { type: 'installed'; path: string } | { type: 'missing'; message: string };

/** The one line shown when we cannot bring a browser for the tests ourselves. */
export const INSTALL_HINT = 'npm test needs Chromium: run `apt-get install chromium chromium-headless-shell` as root, or set CHROMIUM_PATH to a Chromium executable';
/** The one line shown when we cannot bring Lighthouse's browser ourselves. */
export const LIGHTHOUSE_HINT = 'npm run lighthouse needs Chromium: run `apt-get install chromium` as root, or set CHROMIUM_PATH to a Chromium executable';

/**
 * The browser of `kind` on this machine as it is now: `CHROMIUM_PATH` when set; else for `light` (most
 * browser tests) the headless shell when it is there, the full browser otherwise; for `full` (Lighthouse,
 * and the tests of push, which the headless shell cannot offer: it reports notifications as denied
 * whatever was granted) the full browser.
 */
export function browserPath(kind: 'light' | 'full', env: NodeJS.ProcessEnv = process.env, isExecutable: (path: string) => boolean = thisMachine(env).isExecutable): string {
  const override = env.CHROMIUM_PATH?.trim();
  if (override) return override;
  return kind === 'light' && isExecutable(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : DEFAULT_CHROMIUM_PATH;
}

/**
 * Finds the browser `use` needs, or installs Debian's package when that is possible (root and apt), or
 * says in one line what to install. An explicit `CHROMIUM_PATH` that is not executable is reported,
 * never "fixed" by installing a package at another path.
 */
export function ensureChromium(machine: ChromiumMachine, use: BrowserUse = 'tests'): ChromiumOutcome {
  const override = machine.chromiumPathOverride?.trim() || undefined;
  if (override) {
    if (machine.isExecutable(override)) return { type: 'present', path: override };
    return { type: 'missing', message: `npm test needs Chromium: CHROMIUM_PATH=${override} is not an executable file (unset it to use Debian's browser)` };
  }
  const full = ensureDebianPackage(machine, {
    path: DEFAULT_CHROMIUM_PATH,
    pkg: 'chromium',
    hint: use === 'lighthouse' ? LIGHTHOUSE_HINT : INSTALL_HINT,
    purpose: use === 'lighthouse' ? 'npm run lighthouse needs Chromium' : 'npm test needs Chromium',
    alternative: 'set CHROMIUM_PATH',
  });
  if (use === 'lighthouse' || full.type === 'missing') return full;
  const shell = ensureDebianPackage(machine, {
    path: HEADLESS_SHELL_PATH,
    pkg: 'chromium-headless-shell',
    hint: '',
    purpose: 'the lighter headless shell',
    alternative: 'let the tests use the full browser',
  });
  if (shell.type !== 'missing') return shell;
  // The full browser runs the same tests, with more CPU.
  machine.say(`${HEADLESS_SHELL_PATH} is missing: the browser tests use ${DEFAULT_CHROMIUM_PATH} (slower; \`apt-get install chromium-headless-shell\` brings the lighter one)`);
  return full;
}

export interface DebianPackage {
  /** The program the package brings. */
  path: string;
  pkg: string;
  /** The one line shown when we cannot install it (not root, no apt). */
  hint: string;
  /** Who needs it ("npm test needs Chromium"), to start the failure line. */
  purpose: string;
  /** What else the user may do when apt fails. */
  alternative: string;
}

/** The program at `path`, or Debian's package installed when root with apt (noninteractive), or one line saying what to install. */
export function ensureDebianPackage(machine: Omit<ChromiumMachine, 'chromiumPathOverride'>, wanted: DebianPackage): ChromiumOutcome {
  const { path, pkg } = wanted;
  if (machine.isExecutable(path)) return { type: 'present', path };
  if (!machine.isRoot() || !machine.hasApt()) return { type: 'missing', message: wanted.hint };

  machine.say(`${pkg} is missing at ${path}: installing Debian's ${pkg} package (apt-get)`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  // A fresh container has no package lists; update first, then install without questions.
  const updated = machine.run('apt-get', ['update', '-qq'], env);
  const installed = updated === 0 ? machine.run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], env) : updated;
  if (installed !== 0 || !machine.isExecutable(path)) {
    return { type: 'missing', message: `${wanted.purpose}: \`apt-get install ${pkg}\` failed (exit ${installed}); install it by hand or ${wanted.alternative}` };
  }
  return { type: 'installed', path };
}

/** The real machine: file checks, uid, PATH lookup and `spawnSync`. */
export function thisMachine(env: NodeJS.ProcessEnv = process.env): ChromiumMachine {
  return {
    chromiumPathOverride: env.CHROMIUM_PATH,
    isExecutable(path) {
      try {
        accessSync(path, constants.X_OK);
        return statSync(path).isFile();
      } catch {
        return false;
      }
    },
    isRoot: () => process.getuid?.() === 0,
    hasApt: () => spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0,
    run(command, args, extra) {
      const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...env, ...extra } });
      return result.status ?? 1;
    },
    say: (line) => console.error(line),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const use: BrowserUse = process.argv[2] === 'lighthouse' ? 'lighthouse' : 'tests';
  const outcome = ensureChromium(thisMachine(), use);
  if (outcome.type === 'missing') {
    console.error(outcome.message);
    process.exit(1);
  }
  if (outcome.type === 'installed') console.error(`Chromium installed at ${outcome.path}`);
  // The cluster test (SCALE-02) needs HAProxy; brought here with the browser, before the suite starts.
  // Where it cannot be, that test says so in one line and is skipped; nothing else needs it.
  if (use === 'tests') {
    const haproxy = ensureDebianPackage(thisMachine(), { path: '/usr/sbin/haproxy', pkg: 'haproxy', hint: '', purpose: 'the cluster test needs HAProxy', alternative: 'let the cluster test skip' });
    if (haproxy.type === 'installed') console.error(`HAProxy installed at ${haproxy.path}`);
  }
}
