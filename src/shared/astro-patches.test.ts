import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASTRO_PATCHES, applyPatch, astroPatchesPlugin, patchApplies } from '../../scripts/astro-patches.mjs';

const astroDist = join(import.meta.dirname, '../../node_modules/astro/dist');
const source = (file: string) => readFileSync(join(astroDist, file), 'utf8');

describe("the build's patches of Astro (scripts/astro-patches.mjs; decisions 032, 090, 095, 100)", () => {
  it.each(ASTRO_PATCHES.map((patch) => [patch.name, patch] as const))('the installed Astro still holds what %s changes, once', (_name, patch) => {
    const code = source(patch.file);
    expect(patchApplies(patch, code)).toBe(true);
    const changed = applyPatch(patch, code)!;
    expect(changed).toContain(patch.replacement);
    expect(changed.split(patch.find).length).toBeLessThanOrEqual(2);
  });

  it('the plugin makes every patch of a file, and warns and leaves the code as Astro wrote it when the text is gone', () => {
    const plugin = astroPatchesPlugin();
    const warnings: string[] = [];
    const transform = plugin.transform as (this: { warn(m: string): void }, code: string, id: string) => { code: string } | null;
    const context = { warn: (m: string) => void warnings.push(m) };
    const component = source('runtime/server/render/component.js');
    const made = transform.call(context, component, '/x/node_modules/astro/dist/runtime/server/render/component.js')!.code;
    expect(made).toContain('const astroId = islandId(');
    expect(made).toContain('renderers[0].name === "@astrojs/react"');
    expect(warnings).toEqual([]);
    expect(transform.call(context, 'export const other = 1;', '/x/node_modules/astro/dist/core/environment/production.js')).toBeNull();
    expect(warnings).toEqual([
      "astro/dist/core/environment/production.js no longer holds what the patch 'page-modules-imported-once' changes: page modules are imported on every request as Astro does",
    ]);
    expect(transform.call(context, component, '/x/src/pages/index.astro')).toBeNull();
  });
});
