// @ts-check
/**
 * The build's small changes to Astro's own code, each for a cost a member page paid on every request
 * (issue 26; docs/decisions/032-member-page-cost.md, 090-member-page-cpu.md, 095-one-byte-pages-and-fewer-statements.md,
 * 100-the-cost-floor-of-a-page.md). Each patch names the file of `astro/dist` it changes and the text it
 * looks for, which must be there exactly once. When an upgrade of Astro changes that text, the build warns
 * with the patch's `lost` line and runs Astro's code unchanged, and `src/shared/astro-patches.test.ts`
 * fails, so an upgrade cannot drop a patch silently.
 *
 * Plain JavaScript: astro.config.mjs and the test both import it.
 */

/**
 * @typedef {object} AstroPatch
 * @property {string} name
 * @property {string} file The patched file, relative to `astro/dist/`.
 * @property {string} find Text the file holds exactly once; the patch changes it.
 * @property {string[]} [alsoNeeds] Further text the patch relies on (it must still be there).
 * @property {string} replacement What `find` becomes.
 * @property {string} [prepend] Code put before the module's own (imports, helpers).
 * @property {string} lost The build's warning when the text is gone: what runs as Astro does.
 */

/** @type {AstroPatch[]} */
export const ASTRO_PATCHES = [
  {
    /**
     * Astro hashes the inline styles and scripts of a page into its Content-Security-Policy on every
     * request (`generateCspDigest`, one WebCrypto call each through the thread pool: ~0.3 ms of a member
     * page's CPU). The inputs are the build's own inline blocks, the same for every request of a route,
     * so the digests are remembered per content (bounded). Decision 032.
     */
    name: 'remembered-csp-digests',
    file: 'core/encryption.js',
    find: 'async function generateCspDigest(data, algorithm) {',
    replacement: [
      'const rememberedCspDigests = new Map();',
      'async function generateCspDigest(data, algorithm) {',
      '  const key = `${algorithm}\\0${data}`;',
      '  const known = rememberedCspDigests.get(key);',
      '  if (known !== undefined) return known;',
      '  const digest = await computeCspDigest(data, algorithm);',
      '  if (rememberedCspDigests.size < 4096) rememberedCspDigests.set(key, digest);',
      '  return digest;',
      '}',
      'async function computeCspDigest(data, algorithm) {',
    ].join('\n'),
    lost: 'CSP digests are not remembered',
  },
  {
    /**
     * Astro names each island (`uid`, React's id prefix) by hashing its component, its server-rendered
     * HTML and its props with `shorthash`, a JavaScript loop over every character: for the search page's
     * island (24 cards, ~45 kB) that was 4% of the page's server CPU. The name only has to be the same for
     * the same content, so the server hashes it with node:crypto (native SHA-1, hex) instead. Decision 032.
     */
    name: 'native-island-ids',
    file: 'runtime/server/render/component.js',
    find: 'const astroId = shorthash(',
    replacement: 'const astroId = islandId(',
    prepend: ['import { createHash as createIslandHash } from "node:crypto";', 'const islandId = (text) => createIslandHash("sha1").update(text).digest("hex").slice(0, 12);'].join('\n'),
    lost: 'island ids are hashed as Astro does',
  },
  {
    /**
     * Before rendering a framework component Astro asks each renderer whether the component is its own:
     * React's `check` renders the component once inside `renderToStaticMarkup` and throws the result
     * away, so every island's top component ran twice per request. With React as the only renderer the
     * answer can only be React (or no renderer at all, which fails later just the same), so a function
     * component goes straight to it. Decision 090.
     */
    name: 'single-renderer-no-check',
    file: 'runtime/server/render/component.js',
    find: '    if (!renderer) {\n      let error;\n      for (const r of renderers) {',
    replacement:
      '    if (!renderer && renderers.length === 1 && renderers[0].name === "@astrojs/react" && typeof Component === "function" && !(Component.prototype && typeof Component.prototype.render === "function")) renderer = renderers[0];\n' +
      '    if (!renderer) {\n      let error;\n      for (const r of renderers) {',
    lost: 'islands are checked by every renderer as Astro does',
  },
  {
    /**
     * A page is written as one string joined from Astro's chunks and then encoded to UTF-8. V8 keeps a
     * string one byte a character while every character is Latin-1; one wider character anywhere ('…' in
     * a translation, '€' in a price, an emoji in a message) makes the whole joined page two bytes a
     * character, and joining and encoding it then costs 10–25 times as much (0.5–1 ms for a 75 kB
     * conversation page). So a chunk holding a wider character is encoded on its own, and the page's
     * string stays one byte a character; the bytes are the same. Decision 095.
     */
    name: 'wide-chunks-as-bytes',
    file: 'runtime/server/render/astro/render.js',
    find: 'const bytes = chunkToByteArrayOrString(result, chunk);',
    alsoNeeds: ['mergedArray = encoder.encode(text);'],
    replacement: 'let bytes = chunkToByteArrayOrString(result, chunk);\n      if (typeof bytes === "string" && /[\\u0100-\\uffff]/.test(bytes)) bytes = encoder.encode(bytes);',
    lost: 'pages are encoded as Astro does',
  },
  {
    /**
     * Every request asked for its page's module anew (`pageMap`'s `() => import(…)`): Node's loader then
     * resolves the specifier and looks the module up again, ~4 % of the CPU of a small API answer. A page
     * module is loaded once and never changes in a built server, so the first import's promise is kept
     * per page (one failed import is forgotten, so the next request tries again). Decision 100.
     */
    name: 'page-modules-imported-once',
    file: 'core/environment/production.js',
    find: '    return await importComponentInstance();',
    replacement: [
      '    let imported = importedPageModules.get(importComponentInstance);',
      '    if (!imported) {',
      '      imported = importComponentInstance();',
      '      importedPageModules.set(importComponentInstance, imported);',
      '      imported.catch(() => importedPageModules.delete(importComponentInstance));',
      '    }',
      '    return await imported;',
    ].join('\n'),
    prepend: 'const importedPageModules = new WeakMap();',
    lost: 'page modules are imported on every request as Astro does',
  },
];

/**
 * Whether `code` (the patched file's text) still holds what the patch changes: `find` exactly once and
 * every `alsoNeeds`.
 * @param {AstroPatch} patch
 * @param {string} code
 */
export function patchApplies(patch, code) {
  return code.split(patch.find).length === 2 && (patch.alsoNeeds ?? []).every((text) => code.includes(text));
}

/**
 * The file's code with the patch made, or null when it no longer applies.
 * @param {AstroPatch} patch
 * @param {string} code
 */
export function applyPatch(patch, code) {
  if (!patchApplies(patch, code)) return null;
  const changed = code.replace(patch.find, () => patch.replacement);
  return patch.prepend ? `${patch.prepend}\n${changed}` : changed;
}

/**
 * One Vite plugin that makes every patch in its file, each in turn; a patch that no longer applies is
 * left out with the build's warning.
 * @returns {import('vite').Plugin}
 */
export function astroPatchesPlugin(patches = ASTRO_PATCHES) {
  return {
    name: 'astro-patches',
    enforce: 'pre',
    transform(code, id) {
      const path = id.replace(/\\/g, '/');
      const mine = patches.filter((patch) => path.endsWith(`/astro/dist/${patch.file}`));
      if (mine.length === 0) return null;
      let out = code;
      for (const patch of mine) {
        const changed = applyPatch(patch, out);
        if (changed === null) this.warn(`astro/dist/${patch.file} no longer holds what the patch '${patch.name}' changes: ${patch.lost}`);
        else out = changed;
      }
      return out === code ? null : { code: out, map: null };
    },
  };
}
