import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/server/config';
import { envProblems, envReads, readmeVariables, TOOLING_VARIABLES } from './env-variables';
import { readTexts, repoFiles, ROOT } from './repo-files';

/** Code that runs: the app, the server entry, scripts, benchmarks, test setup, the tools' configs (not the tests' own assertions). */
const CODE = /^(?:src|server|scripts|bench|tests)\/.*\.(?:ts|tsx|astro|mjs|js)$|^[^/]+\.config\.(?:ts|mjs|js)$/;
const TESTS = /\.(?:test|spec)\.tsx?$/;

describe('environment variables', () => {
  it('every variable read goes through the configuration schema or is a listed tooling variable, and all are in the README', () => {
    // The guards' own files name variables in their examples.
    const files = readTexts(repoFiles().filter((f) => CODE.test(f) && !TESTS.test(f) && !f.startsWith('scripts/guards/')));
    const reads = envReads(files);
    expect(reads.length).toBeGreaterThan(20);
    const readme = readmeVariables(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(envProblems({ reads, configVariables: CONFIG_VARIABLES, tooling: TOOLING_VARIABLES, readme })).toEqual([]);
  });

  it('refuses a variable outside the schema, one missing from the README, and a stale or clashing allow-list entry', () => {
    const reads = envReads([{ path: 'src/a.ts', text: "const a = process.env.NEW_KNOB;\nconst b = process.env['PORT'];\nif (import.meta.env.DEV) x(env.TOOL_X);" }]);
    expect(reads.map((r) => `${r.where} ${r.name}`)).toEqual(['src/a.ts:1 NEW_KNOB', 'src/a.ts:2 PORT', 'src/a.ts:3 TOOL_X']);
    const readme = readmeVariables('## Configuration\n\n| variable | default |\n| --- | --- |\n| `PORT` / `HOST` | 4321 |\n| `TOOL_X` | — |\n\n## Other\n| `STALE` | — |\n');
    expect([...readme]).toEqual(['PORT', 'HOST', 'TOOL_X']);
    expect(envProblems({ reads, configVariables: ['PORT', 'HOST', 'DATA_DIR'], tooling: { TOOL_X: 'a tool', PORT: 'clash', STALE: 'gone' }, readme })).toEqual([
      "src/a.ts:1: NEW_KNOB is neither in src/server/config.ts's schema nor a listed test/tooling variable",
      "DATA_DIR is not in the README's configuration tables",
      "STALE is not in the README's configuration tables",
      "PORT is listed as a tooling variable but is in the configuration's schema",
      'STALE is listed as a tooling variable but nothing reads it',
    ]);
  });
});
