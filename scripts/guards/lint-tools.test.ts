/**
 * `npm run lint` (ESLint, Prettier, knip) runs over the repository; these show each of them refusing a
 * deliberate violation: ESLint and Prettier with the project's own configuration (a change that silences
 * one of the rules fails here), knip on a small project of its own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { ROOT } from './repo-files';

describe('lint tools', () => {
  it('ESLint refuses a conditional hook, a setState inside an effect and an explicit any in src/', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const island = [
      "import { useEffect, useState } from 'react';",
      'export function Island(props: { open: boolean }) {',
      '  const [ready, setReady] = useState(false);',
      '  useEffect(() => setReady(true), []);',
      '  if (props.open) useState(0);',
      '  return ready;',
      '}',
      '',
    ].join('\n');
    const [islandResult] = await eslint.lintText(island, { filePath: join(ROOT, 'src/islands/Example.tsx') });
    const [moduleResult] = await eslint.lintText('export const parse = (text: string): any => JSON.parse(text);\n', { filePath: join(ROOT, 'src/server/example.ts') });
    expect(islandResult!.messages.map((m) => m.ruleId)).toEqual(expect.arrayContaining(['react-hooks/set-state-in-effect', 'react-hooks/rules-of-hooks']));
    expect(moduleResult!.messages.map((m) => m.ruleId)).toEqual(['@typescript-eslint/no-explicit-any']);
  });

  it("Prettier's configuration refuses double quotes and a missing semicolon, and accepts the house style", async () => {
    const filepath = join(ROOT, 'src/server/example.ts');
    const options = { ...(await prettier.resolveConfig(filepath)), filepath };
    expect(await prettier.check('export const a = "x"\n', options)).toBe(false);
    expect(await prettier.check("export const a = 'x';\n", options)).toBe(true);
  });

  it('knip reports an unused file and an unused export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'knip-guard-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'package.json'), '{ "name": "knip-guard", "type": "module", "private": true }\n');
      writeFileSync(join(dir, 'knip.json'), '{ "entry": ["src/index.ts"], "project": ["src/**/*.ts"], "ignoreExportsUsedInFile": true }\n');
      writeFileSync(join(dir, 'src/index.ts'), "import { used } from './a';\nconsole.log(used);\n");
      writeFileSync(join(dir, 'src/a.ts'), 'export const used = 1;\nexport const unused = 2;\n');
      writeFileSync(join(dir, 'src/orphan.ts'), 'export const orphan = 3;\n');
      const run = promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/knip/bin/knip.js'), '--directory', dir, '--no-progress', '--no-config-hints']);
      const failure = await run.then(
        () => null,
        (err: { code: number; stdout: string }) => err,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toMatch(/Unused files \(1\)\s+src\/orphan\.ts/);
      expect(failure?.stdout).toMatch(/Unused exports \(1\)\s+unused\s+src\/a\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
