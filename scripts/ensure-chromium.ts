/**
 * Makes sure the browser tests have a Chromium before `npm test` spends minutes on the build: the system
 * Chromium at `CHROMIUM_PATH` (default `/usr/bin/chromium`, what playwright.config.ts launches). When it
 * is missing and we are root on a machine with apt, Debian's `chromium` package is installed
 * (noninteractive; only Debian's mirrors and the npm registry are reachable, so no browser is ever
 * downloaded from elsewhere). Otherwise it stops at once with one line saying what to install.
 *
 * HAProxy (Debian's `haproxy`, for the cluster test) is brought the same way when it can be, and left
 * alone when it cannot (that test then skips and says why).
 *
 * Run as `tsx scripts/ensure-chromium.ts`; the decision is `ensureChromium` with the machine's checks
 * injected, so the unit test exercises every branch without touching the machine.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

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

/** The one line shown when we cannot bring Chromium ourselves. */
export const INSTALL_HINT = 'npm test needs Chromium: run `apt-get install chromium` as root, or set CHROMIUM_PATH to a Chromium executable';

/**
 * Finds Chromium, or installs Debian's package when that is possible (root and apt), or says in one
 * line what to install. An explicit `CHROMIUM_PATH` that is not executable is reported, never "fixed"
 * by installing a package at another path.
 */
export function ensureChromium(machine: ChromiumMachine): ChromiumOutcome {
  const override = machine.chromiumPathOverride?.trim() || undefined;
  const path = override ?? DEFAULT_CHROMIUM_PATH;
  if (machine.isExecutable(path)) return { type: 'present', path };
  if (override) return { type: 'missing', message: `npm test needs Chromium: CHROMIUM_PATH=${override} is not an executable file (unset it to use ${DEFAULT_CHROMIUM_PATH})` };
  return ensureDebianPackage(machine, { path, pkg: 'chromium', hint: INSTALL_HINT, purpose: 'npm test needs Chromium', alternative: 'set CHROMIUM_PATH' });
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
  const outcome = ensureChromium(thisMachine());
  if (outcome.type === 'missing') {
    console.error(outcome.message);
    process.exit(1);
  }
  if (outcome.type === 'installed') console.error(`Chromium installed at ${outcome.path}`);
  // The cluster test (SCALE-02) needs HAProxy; brought here with the browser, before the suite starts.
  // Where it cannot be, that test says so in one line and is skipped; nothing else needs it.
  const haproxy = ensureDebianPackage(thisMachine(), { path: '/usr/sbin/haproxy', pkg: 'haproxy', hint: '', purpose: 'the cluster test needs HAProxy', alternative: 'let the cluster test skip' });
  if (haproxy.type === 'installed') console.error(`HAProxy installed at ${haproxy.path}`);
}
