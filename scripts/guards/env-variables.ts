/**
 * Every environment variable the code reads is either a key of the configuration's schema
 * (src/server/config.ts, checked at start) or a test/tooling variable listed here with its reason, and
 * each one is in the README's configuration tables, so a deployment finds every knob in one place.
 */
import type { SourceFile } from './repo-files';

/** Variables only tests, benchmarks and scripts read: they configure the tooling, not the app. */
export const TOOLING_VARIABLES: Readonly<Record<string, string>> = {
  PGLITE_MEMORY_TEMPLATE: "the test runner's migrated in-memory database dump (tests/setup/global.ts sets it); read where a database opens so the built servers the tests start get it too",
  TEST_POSTGRES_TEMPLATE: "the test runner's migrated PostgreSQL database the tests' databases are copied from (tests/setup/global.ts sets it)",
  TEST_POSTGRES_URL: 'the PostgreSQL server the integration tests and benchmarks create their databases on',
  SEED_PHOTO_CACHE: "the folder the test run keeps the demo seed's portraits in (tests/setup/global.ts sets it)",
  E2E_PORT: 'the port the Playwright suite starts the built server on',
  CHROMIUM_PATH: "one Chromium for the tests and Lighthouse, instead of Debian's headless shell and full browser",
  BUDGETS_FILE: 'the budgets npm run size and npm run lighthouse hold the pages to (default budgets.json)',
  LIGHTHOUSE_ONLY: 'npm run lighthouse: one page instead of all',
  LIGHTHOUSE_RUNS: 'npm run lighthouse: runs per page (the median counts)',
  LIGHTHOUSE_REPORT_DIR: 'npm run lighthouse: where the reports are written',
  BASELINE_CPU_MS: "npm run bench:members sets it: the plain node:http baseline's CPU per request",
  BASELINE_PROCESSES: 'npm run bench:members sets it: processes of the baseline server',
  BENCH_SECONDS: 'benchmarks: seconds per measured run',
  BENCH_CONNECTIONS: 'benchmarks: concurrent clients',
  BENCH_DB: 'npm run bench:members: which databases (postgres, pglite or both)',
  BENCH_MEMBERS: 'npm run bench:members: demo members to seed',
  BENCH_KEEP: 'npm run bench:members: keep the seeded database and print where it is',
  BENCH_QUERY_RUNS: "npm run bench:members: repetitions of the search query's own timing",
  BENCH_STREAMS: 'npm run bench:chat: idle live streams held open',
  BENCH_SENDS: 'npm run bench:chat: messages sent per run',
  BENCH_SENDERS: 'npm run bench:chat: members sending at once',
  BENCH_IN_FLIGHT: 'npm run bench:chat: sends in flight per sender',
  BENCH_NOTIFY_RUNS: 'npm run bench:chat: repetitions of the bare NOTIFY timing',
  BENCH_OPEN_LOOP_SHARE: 'npm run bench:members: the open-loop arrival rate as a share of the measured capacity',
  BENCH_OPEN_LOOP_SECONDS: 'npm run bench:members: seconds of the open-loop run',
  BENCH_SERVER: 'npm run bench:members: another built server to measure (before/after)',
  BENCH_NODE_OPTIONS: 'npm run bench:members and bench:page: flags for the measured server (a CPU profile)',
  BENCH_PROFILE_DIR: 'npm run bench:page: write a V8 CPU profile of the server here and print its dearest functions',
  BENCH_PROFILE_TOP: 'npm run bench:page: how many functions of the profile to print',
  BENCH_ACCOUNT: 'npm run bench:page: the demo account the pages are measured as (free or premium)',
  BENCH_ACCEPT_ENCODING: 'npm run bench:page: the Accept-Encoding the load sends (a compressed page)',
  BENCH_PARTS: 'npm run bench:capacity: which parts to measure (notify, storage, chat, photo)',
  CLUSTER_PORT: 'npm run cluster: the port HAProxy serves the three processes on',
  BENCH_SUSTAIN_SECONDS: 'npm run bench:chat: length of the sustained two-way run',
};

/** Astro's own `import.meta.env` values (not configuration). */
const ASTRO_BUILT_INS = new Set(['DEV', 'PROD', 'MODE', 'SSR', 'BASE_URL', 'SITE', 'ASSETS_PREFIX']);

export interface EnvRead {
  name: string;
  where: string;
}

/** `process.env.X`, `process.env['X']`, `import.meta.env.X` and `env.X` (an env object passed in). */
export function envReads(files: readonly SourceFile[]): EnvRead[] {
  const reads: EnvRead[] = [];
  const pattern = /\b(import\.meta\.)?env(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g;
  for (const file of files) {
    file.text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(pattern)) {
        const name = (m[2] ?? m[3])!;
        if (m[1] && ASTRO_BUILT_INS.has(name)) continue;
        reads.push({ name, where: `${file.path}:${i + 1}` });
      }
    });
  }
  return reads;
}

/** The variable names in the first column of the tables under the README's "## Configuration". */
export function readmeVariables(readme: string): Set<string> {
  const start = readme.search(/^## Configuration\b/m);
  if (start < 0) return new Set();
  const rest = readme.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1];
    if (firstCell) for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

export function envProblems(input: { reads: readonly EnvRead[]; configVariables: readonly string[]; tooling: Readonly<Record<string, string>>; readme: ReadonlySet<string> }): string[] {
  const problems: string[] = [];
  const config = new Set(input.configVariables);
  const reported = new Set<string>();
  for (const read of input.reads) {
    if (reported.has(read.name)) continue;
    if (!config.has(read.name) && !(read.name in input.tooling)) {
      problems.push(`${read.where}: ${read.name} is neither in src/server/config.ts's schema nor a listed test/tooling variable`);
      reported.add(read.name);
    }
  }
  for (const name of [...input.configVariables, ...Object.keys(input.tooling)]) {
    if (!input.readme.has(name)) problems.push(`${name} is not in the README's configuration tables`);
  }
  const read = new Set(input.reads.map((r) => r.name));
  for (const name of Object.keys(input.tooling)) {
    if (config.has(name)) problems.push(`${name} is listed as a tooling variable but is in the configuration's schema`);
    if (!read.has(name)) problems.push(`${name} is listed as a tooling variable but nothing reads it`);
  }
  return problems;
}
