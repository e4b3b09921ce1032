/** The decision `npm test` makes about Chromium, with the machine faked (nothing is installed or removed). */
import { describe, expect, it } from 'vitest';
import { browserPath, DEFAULT_CHROMIUM_PATH, ensureChromium, HEADLESS_SHELL_PATH, INSTALL_HINT, LIGHTHOUSE_HINT, type ChromiumMachine } from './ensure-chromium';

interface FakeOptions {
  executables?: string[];
  root?: boolean;
  apt?: boolean;
  override?: string;
  /** Exit status of each apt-get call, by its first argument; `install` puts the package's program in place when 0. */
  aptStatus?: { update?: number; install?: number };
}

function fakeMachine(options: FakeOptions = {}) {
  const executables = new Set(options.executables ?? []);
  const runs: { command: string; args: readonly string[]; env: Record<string, string> }[] = [];
  const said: string[] = [];
  const machine: ChromiumMachine = {
    chromiumPathOverride: options.override,
    isExecutable: (path) => executables.has(path),
    isRoot: () => options.root ?? false,
    hasApt: () => options.apt ?? false,
    run(command, args, env) {
      runs.push({ command, args, env });
      const status = args[0] === 'update' ? (options.aptStatus?.update ?? 0) : (options.aptStatus?.install ?? 0);
      if (args[0] === 'install' && status === 0) executables.add(args.at(-1) === 'chromium' ? DEFAULT_CHROMIUM_PATH : HEADLESS_SHELL_PATH);
      return status;
    },
    say: (line) => said.push(line),
  };
  return { machine, runs, said };
}

const commands = (runs: { command: string; args: readonly string[] }[]) => runs.map((r) => [r.command, ...r.args].join(' '));

describe('ensure-chromium: what npm test does about a missing Chromium', () => {
  it('both browsers present: the tests get the headless shell, nothing run', () => {
    const { machine, runs } = fakeMachine({ executables: [HEADLESS_SHELL_PATH, DEFAULT_CHROMIUM_PATH], root: true, apt: true });
    expect(ensureChromium(machine)).toEqual({ type: 'present', path: HEADLESS_SHELL_PATH });
    expect(ensureChromium(machine, 'lighthouse')).toEqual({ type: 'present', path: DEFAULT_CHROMIUM_PATH });
    expect(runs).toEqual([]);
  });

  it('CHROMIUM_PATH overrides the default path', () => {
    const { machine, runs } = fakeMachine({ executables: ['/opt/chromium/chrome'], override: '/opt/chromium/chrome' });
    expect(ensureChromium(machine)).toEqual({ type: 'present', path: '/opt/chromium/chrome' });
    expect(ensureChromium(machine, 'lighthouse')).toEqual({ type: 'present', path: '/opt/chromium/chrome' });
    expect(runs).toEqual([]);
  });

  it('missing, root with apt: installs Debian chromium and chromium-headless-shell noninteractively', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: true });
    expect(ensureChromium(machine)).toEqual({ type: 'installed', path: HEADLESS_SHELL_PATH });
    expect(commands(runs)).toEqual([
      'apt-get update -qq',
      'apt-get install -y -qq --no-install-recommends chromium',
      'apt-get update -qq',
      'apt-get install -y -qq --no-install-recommends chromium-headless-shell',
    ]);
    for (const run of runs) expect(run.env.DEBIAN_FRONTEND).toBe('noninteractive');
  });

  it('the full browser there, root with apt: only the shell is installed', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: true, executables: [DEFAULT_CHROMIUM_PATH] });
    expect(ensureChromium(machine)).toEqual({ type: 'installed', path: HEADLESS_SHELL_PATH });
    expect(commands(runs)).toEqual(['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium-headless-shell']);
  });

  it('Lighthouse gets the full browser: installs Debian chromium when missing, not the shell', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: true, executables: [HEADLESS_SHELL_PATH] });
    expect(ensureChromium(machine, 'lighthouse')).toEqual({ type: 'installed', path: DEFAULT_CHROMIUM_PATH });
    expect(commands(runs)).toEqual(['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium']);
  });

  it('not root, only the full browser there: the tests use it, and it says how to get the lighter one', () => {
    const { machine, runs, said } = fakeMachine({ root: false, apt: true, executables: [DEFAULT_CHROMIUM_PATH] });
    expect(ensureChromium(machine)).toEqual({ type: 'present', path: DEFAULT_CHROMIUM_PATH });
    expect(said.join('\n')).toContain('apt-get install chromium-headless-shell');
    expect(runs).toEqual([]);
  });

  it('not root, only the shell there: one line (the push tests need the full browser)', () => {
    const { machine, runs } = fakeMachine({ root: false, apt: true, executables: [HEADLESS_SHELL_PATH] });
    expect(ensureChromium(machine)).toEqual({ type: 'missing', message: INSTALL_HINT });
    expect(runs).toEqual([]);
  });

  it('missing and not root: one line, nothing run', () => {
    const { machine, runs } = fakeMachine({ root: false, apt: true });
    const outcome = ensureChromium(machine);
    expect(outcome).toEqual({ type: 'missing', message: INSTALL_HINT });
    expect(INSTALL_HINT).not.toContain('\n');
    expect(INSTALL_HINT).toContain('apt-get install chromium chromium-headless-shell');
    expect(INSTALL_HINT).toContain('CHROMIUM_PATH');
    expect(ensureChromium(machine, 'lighthouse')).toEqual({ type: 'missing', message: LIGHTHOUSE_HINT });
    expect(LIGHTHOUSE_HINT).toContain('apt-get install chromium`');
    expect(runs).toEqual([]);
  });

  it('missing, root without apt: one line, nothing run', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: false });
    expect(ensureChromium(machine)).toEqual({ type: 'missing', message: INSTALL_HINT });
    expect(runs).toEqual([]);
  });

  it('a CHROMIUM_PATH that is not executable is reported, not papered over by apt', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: true, override: '/nowhere/chrome', executables: [DEFAULT_CHROMIUM_PATH, HEADLESS_SHELL_PATH] });
    const outcome = ensureChromium(machine);
    expect(outcome.type).toBe('missing');
    expect(outcome.type === 'missing' && outcome.message).toContain('CHROMIUM_PATH=/nowhere/chrome');
    expect(runs).toEqual([]);
  });

  it('a failing apt-get is one line with its exit status', () => {
    const { machine } = fakeMachine({ root: true, apt: true, aptStatus: { update: 100 } });
    const outcome = ensureChromium(machine);
    expect(outcome.type).toBe('missing');
    expect(outcome.type === 'missing' && outcome.message).toMatch(/failed \(exit 100\)/);
  });

  it('browserPath: what playwright.config.ts launches, as ensureChromium left the machine', () => {
    const has =
      (...paths: string[]) =>
      (path: string) =>
        paths.includes(path);
    expect(browserPath('light', {}, has(HEADLESS_SHELL_PATH, DEFAULT_CHROMIUM_PATH))).toBe(HEADLESS_SHELL_PATH);
    expect(browserPath('light', {}, has(DEFAULT_CHROMIUM_PATH))).toBe(DEFAULT_CHROMIUM_PATH);
    expect(browserPath('full', {}, has(HEADLESS_SHELL_PATH, DEFAULT_CHROMIUM_PATH))).toBe(DEFAULT_CHROMIUM_PATH);
    expect(browserPath('light', { CHROMIUM_PATH: '/opt/chrome' }, has(HEADLESS_SHELL_PATH))).toBe('/opt/chrome');
  });
});
