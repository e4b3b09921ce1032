import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERRORS } from './api-errors';

const root = join(import.meta.dirname, '..', '..');

describe('API contract', () => {
  it('the generated types match openapi/openapi.yaml (run `npm run api:types` after changing it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-types-'));
    try {
      const out = join(dir, 'api-types.ts');
      execFileSync(join(root, 'node_modules/.bin/openapi-typescript'), [join(root, 'openapi/openapi.yaml'), '-o', out], { stdio: 'pipe' });
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(root, 'src/shared/api-types.ts'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every error code the server can answer is listed in the contract', () => {
    const yaml = readFileSync(join(root, 'openapi/openapi.yaml'), 'utf8');
    const listed = /ErrorCode:\s*\n\s*type: string\s*\n\s*enum:\s*\n((?:\s*- \w+\n)+)/.exec(yaml)?.[1] ?? '';
    const codes = [...listed.matchAll(/- (\w+)/g)].map((m) => m[1]).sort();
    expect(codes).toEqual(Object.keys(API_ERRORS).sort());
  });

  it('every endpoint file under src/pages/api is documented', () => {
    const yaml = readFileSync(join(root, 'openapi/openapi.yaml'), 'utf8');
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src/pages/api'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.php.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(yaml, file).toContain(`/api/${file.split('/').pop()!.replace(/\.ts$/, '')}:`);
  });
});
