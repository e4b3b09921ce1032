/** The decision `npm test` makes about Chromium, with the machine faked (nothing is installed or removed). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM_PATH, ensureChromium, INSTALL_HINT, type ChromiumMachine } from './ensure-chromium';

interface FakeOptions {
  executables?: string[];
  root?: boolean;
  apt?: boolean;
  override?: string;
  /** Exit status of each apt-get call, by its first argument; `install` puts Chromium in place when 0. */
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
      if (args[0] === 'install' && status === 0) executables.add(DEFAULT_CHROMIUM_PATH);
      return status;
    },
    say: (line) => said.push(line),
  };
  return { machine, runs, said };
}

describe('ensure-chromium: what npm test does about a missing Chromium', () => {
  it('present at /usr/bin/chromium: ok, nothing run', () => {
    const { machine, runs } = fakeMachine({ executables: [DEFAULT_CHROMIUM_PATH], root: true, apt: true });
    expect(ensureChromium(machine)).toEqual({ type: 'present', path: DEFAULT_CHROMIUM_PATH });
    expect(runs).toEqual([]);
  });

  it('CHROMIUM_PATH overrides the default path', () => {
    const { machine, runs } = fakeMachine({ executables: ['/opt/chromium/chrome'], override: '/opt/chromium/chrome' });
    expect(ensureChromium(machine)).toEqual({ type: 'present', path: '/opt/chromium/chrome' });
    expect(runs).toEqual([]);
  });

  it('missing, root with apt: installs Debian chromium noninteractively', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: true });
    expect(ensureChromium(machine)).toEqual({ type: 'installed', path: DEFAULT_CHROMIUM_PATH });
    expect(runs.map((r) => [r.command, ...r.args].join(' '))).toEqual(['apt-get update -qq', 'apt-get install -y -qq --no-install-recommends chromium']);
    for (const run of runs) expect(run.env.DEBIAN_FRONTEND).toBe('noninteractive');
  });

  it('missing and not root: one line, nothing run', () => {
    const { machine, runs } = fakeMachine({ root: false, apt: true });
    const outcome = ensureChromium(machine);
    expect(outcome).toEqual({ type: 'missing', message: INSTALL_HINT });
    expect(INSTALL_HINT).not.toContain('\n');
    expect(INSTALL_HINT).toContain('apt-get install chromium');
    expect(INSTALL_HINT).toContain('CHROMIUM_PATH');
    expect(runs).toEqual([]);
  });

  it('missing, root without apt: one line, nothing run', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: false });
    expect(ensureChromium(machine)).toEqual({ type: 'missing', message: INSTALL_HINT });
    expect(runs).toEqual([]);
  });

  it('a CHROMIUM_PATH that is not executable is reported, not papered over by apt', () => {
    const { machine, runs } = fakeMachine({ root: true, apt: true, override: '/nowhere/chrome', executables: [DEFAULT_CHROMIUM_PATH] });
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
});
