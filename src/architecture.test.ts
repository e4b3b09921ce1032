/**
 * The layering of docs/architecture.md, checked on the source (the rules are tests/setup/architecture.ts):
 * no import circles between files nor between the folders of src/server (a circle makes module order
 * matter and hides which side owns what); the rules in src/server import neither Astro nor React (they
 * are tested directly against a database and reused by jobs and scripts; the web adapter in
 * src/server/web may import Astro's *types*); and each layer imports only downwards. Each rule is also
 * run on a made-up graph that breaks it, so a rule that stopped catching anything would fail here.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderCycles, forbiddenImports, LAYER_RULES, moduleCycles, projectGraph, type Graph, type Imports } from '../tests/setup/architecture';
import { astroPages, longFrontmatter } from '../tests/setup/frontmatter';

const ROOT = resolve(import.meta.dirname, '..');
const graph = projectGraph(ROOT);

/** A made-up graph: `edges` as `from: [to, …]`, every import a local file. */
function made(edges: Record<string, string[]>): Graph {
  const g: Graph = new Map();
  for (const [from, to] of Object.entries(edges)) g.set(from, { local: to, external: [], typeOnly: [] } satisfies Imports);
  return g;
}

describe('architecture', () => {
  it('no module imports itself through a circle of imports', () => {
    expect(moduleCycles(graph)).toEqual([]);
    expect(moduleCycles(made({ 'src/a.ts': ['src/b.ts'], 'src/b.ts': ['src/a.ts'] }))).toEqual(['src/a.ts → src/b.ts → src/a.ts']);
  });

  it('the rules in src/server import neither Astro nor React (the HTTP glue only Astro types)', () => {
    const framework = (s: string) => s === 'astro' || s.startsWith('astro:') || s.startsWith('astro/') || s === 'react' || s.startsWith('react-dom') || s.startsWith('@astrojs/');
    const offenders = [...graph.entries()]
      .filter(([file]) => file.startsWith('src/server/'))
      .flatMap(([file, { external, typeOnly }]) => {
        const glue = /^src\/server\/web\//.test(file);
        return external.filter((s) => framework(s) && !(glue && typeOnly.includes(s))).map((s) => `${file} imports ${s}`);
      });
    expect(offenders).toEqual([]);
  });

  it('no two folders of src/server reach each other through imports (the folders form layers)', () => {
    expect(folderCycles(graph, 'src/server')).toEqual([]);
    // A rule that imports the adapter, which imports the rule: caught, with the imports that tie them.
    const knot = made({
      'src/server/chat/send.ts': ['src/server/web/api.ts'],
      'src/server/web/api.ts': ['src/server/web/request-context.ts'],
      'src/server/web/request-context.ts': ['src/server/chat/send.ts'],
    });
    expect(folderCycles(knot, 'src/server')).toEqual([
      'chat, web: chat → web (src/server/chat/send.ts → src/server/web/api.ts); web → chat (src/server/web/request-context.ts → src/server/chat/send.ts)',
    ]);
  });

  it('pages keep their frontmatter short (one view-model call; the shaping lives in src/server/web/pages)', () => {
    expect(longFrontmatter(astroPages(ROOT, 'src/pages'), 40)).toEqual([]);
    const fence = (n: number) => ['---', ...Array.from({ length: n }, (_, i) => `const a${i} = ${i};`), '---', '<p>page</p>'].join('\n');
    const examples = new Map([
      ['src/pages/long.astro', fence(41)],
      ['src/pages/short.astro', fence(40)],
      ['src/pages/none.astro', '<p>page</p>'],
    ]);
    expect(longFrontmatter(examples, 40)).toEqual(['src/pages/long.astro (41 lines)']);
  });

  for (const rule of LAYER_RULES) {
    it(`layers: ${rule.name}`, () => {
      expect(forbiddenImports(graph, rule)).toEqual([]);
    });
  }

  it('each layer rule catches an import it forbids and lets the allowed direction pass', () => {
    const cases: Record<string, { bad: [string, string]; good: [string, string] }> = {
      'the rules in src/server never import the web adapter, the runtime, the demo data or the Astro side': {
        bad: ['src/server/accounts/signup.ts', 'src/server/web/request-context.ts'],
        good: ['src/server/web/signup.ts', 'src/server/accounts/signup.ts'],
      },
      'the rules never take the whole app context: they name the services they need': {
        bad: ['src/server/accounts/deletion.ts', 'src/server/app.ts'],
        good: ['src/server/web/services.ts', 'src/server/app.ts'],
      },
      'the web adapter never imports the runtime, the demo data or the Astro side': {
        bad: ['src/server/web/api.ts', 'src/runtime/boot.ts'],
        good: ['src/runtime/node-server.ts', 'src/server/web/events.ts'],
      },
      'routes never import src/db (a query belongs to a service in src/server)': {
        bad: ['src/pages/signup.astro', 'src/db/schema/index.ts'],
        good: ['src/pages/signup.astro', 'src/server/accounts/signup.ts'],
      },
      'src/db imports nothing above it': { bad: ['src/db/client.ts', 'src/server/config/index.ts'], good: ['src/server/accounts/signup.ts', 'src/db/client.ts'] },
      'src/shared imports only src/shared (the browser bundles it)': {
        bad: ['src/shared/settings.ts', 'src/server/sites/directory.ts'],
        good: ['src/server/sites/directory.ts', 'src/shared/settings.ts'],
      },
      'the demo data never imports the runtime or the Astro side': { bad: ['src/demo/seed.ts', 'src/runtime/boot.ts'], good: ['src/runtime/boot.ts', 'src/demo/demo-seed.ts'] },
    };
    expect(Object.keys(cases).sort()).toEqual(LAYER_RULES.map((r) => r.name).sort());
    for (const rule of LAYER_RULES) {
      const { bad, good } = cases[rule.name]!;
      expect(forbiddenImports(made({ [bad[0]]: [bad[1]] }), rule), rule.name).toEqual([`${bad[0]} → ${bad[1]}`]);
      expect(forbiddenImports(made({ [good[0]]: [good[1]] }), rule), rule.name).toEqual([]);
    }
  });
});
