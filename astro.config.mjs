// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { CSP_DIRECTIVES } from './src/server/web/headers.ts';

/**
 * `client:interaction`: an island loads on the first pointer, touch or focus on one of its controls and
 * keeps the click that came first (PERF-02, src/client/directives/interaction.ts). Astro inlines the
 * directive's script and hashes it into the Content-Security-Policy like its own.
 */
/** @type {import('astro').AstroIntegration} */
const interactionDirective = {
  name: 'interaction-directive',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('./src/client/directives/interaction.ts', import.meta.url)) });
    },
  },
};

/**
 * Astro hashes the inline styles and scripts of a page into its Content-Security-Policy on every request
 * (`generateCspDigest`, one WebCrypto call each through the thread pool: ~0.3 ms of a member page's CPU).
 * The inputs are the build's own inline blocks, the same for every request of a route, so the digests are
 * remembered per content (bounded). If Astro renames the function the build says so and runs unchanged.
 * docs/decisions/032-member-page-cost.md
 */
/** @type {import('vite').Plugin} */
const rememberedCspDigests = {
  name: 'remembered-csp-digests',
  enforce: 'pre',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/astro/dist/core/encryption.js')) return null;
    const head = 'async function generateCspDigest(data, algorithm) {';
    if (!code.includes(head)) {
      this.warn('astro/dist/core/encryption.js has no generateCspDigest any more: CSP digests are not remembered');
      return null;
    }
    const memo = [
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
    ].join('\n');
    return { code: code.replace(head, memo), map: null };
  },
};

/**
 * Astro names each island (`uid`, React's id prefix) by hashing its component, its server-rendered HTML and
 * its props with `shorthash`, a JavaScript loop over every character: for the search page's island (24
 * cards, ~45 kB) that was 4% of the page's server CPU. The island's name only has to be the same for
 * the same content, so the server's renders hash it with node:crypto (native SHA-1, hex) instead.
 * If Astro changes the line, the build says so and runs unchanged. docs/decisions/032-member-page-cost.md
 */
/** @type {import('vite').Plugin} */
const nativeIslandIds = {
  name: 'native-island-ids',
  enforce: 'pre',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/astro/dist/runtime/server/render/component.js')) return null;
    const call = 'const astroId = shorthash(';
    if (!code.includes(call)) {
      this.warn('astro/dist/runtime/server/render/component.js no longer names islands with shorthash: island ids are hashed as Astro does');
      return null;
    }
    const helper = ['import { createHash as createIslandHash } from "node:crypto";', 'const islandId = (text) => createIslandHash("sha1").update(text).digest("hex").slice(0, 12);'].join('\n');
    return { code: `${helper}\n${code.replace(call, 'const astroId = islandId(')}`, map: null };
  },
};

/**
 * A page is written as one string joined from Astro's chunks and then encoded to UTF-8. V8 keeps a
 * string one byte a character while every character is Latin-1; one wider character anywhere ('…' in a
 * translation, '€' in a price, an emoji in a message) makes the whole joined page two bytes a character,
 * and joining and encoding it then costs 10–25 times as much (0.5–1 ms for a 75 kB conversation page).
 * So a chunk holding a wider character is encoded on its own, and the page's string stays one byte a
 * character; the bytes are the same. A one-byte chunk answers the test at once (V8 knows its strings'
 * width). If Astro changes the line, the build says so and runs unchanged. docs/decisions/095-one-byte-pages-and-fewer-statements.md
 */
/** @type {import('vite').Plugin} */
const wideChunksAsBytes = {
  name: 'wide-chunks-as-bytes',
  enforce: 'pre',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/astro/dist/runtime/server/render/astro/render.js')) return null;
    const line = 'const bytes = chunkToByteArrayOrString(result, chunk);';
    if (code.split(line).length !== 2 || !code.includes('mergedArray = encoder.encode(text);')) {
      this.warn('astro/dist/runtime/server/render/astro/render.js no longer joins page chunks as before: pages are encoded as Astro does');
      return null;
    }
    const wide = 'let bytes = chunkToByteArrayOrString(result, chunk);\n      if (typeof bytes === "string" && /[\\u0100-\\uffff]/.test(bytes)) bytes = encoder.encode(bytes);';
    return { code: code.replace(line, wide), map: null };
  },
};

/**
 * Before rendering a framework component Astro asks each renderer whether the component is its own:
 * React's `check` renders the component once inside `renderToStaticMarkup` and throws the result away,
 * so every island's top component ran twice per request (the conversation page's message list and
 * its day keys twice; issue 26). With React as the only renderer the answer can only be React (or no
 * renderer at all, which fails later just the same), so a function component goes straight to it. If
 * Astro changes the lines, the build says so and runs unchanged. docs/decisions/090-member-page-cpu.md
 */
/** @type {import('vite').Plugin} */
const singleRendererNoCheck = {
  name: 'single-renderer-no-check',
  enforce: 'pre',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/astro/dist/runtime/server/render/component.js')) return null;
    const loop = '    if (!renderer) {\n      let error;\n      for (const r of renderers) {';
    if (!code.includes(loop)) {
      this.warn('astro/dist/runtime/server/render/component.js no longer checks renderers in this loop: islands are checked as Astro does');
      return null;
    }
    const shortcut =
      '    if (!renderer && renderers.length === 1 && renderers[0].name === "@astrojs/react" && typeof Component === "function" && !(Component.prototype && typeof Component.prototype.render === "function")) renderer = renderers[0];\n';
    return { code: code.replace(loop, shortcut + loop), map: null };
  },
};

// Server output only: every page is rendered per request because the site (and so every text,
// price and image) depends on the request's host. server/main.ts wraps the built handler with
// static files, request ids, health checks and graceful shutdown (docs/decisions/001-server-entry.md).
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), interactionDirective],
  server: { port: Number(process.env.PORT ?? 4321) },
  security: {
    // Cross-site writes are refused by our own middleware with the scheme the browser used (src/server/web/origin-check.ts).
    checkOrigin: false,
    // The Content-Security-Policy header of every page (SEC-10, docs/decisions/015-content-security-policy.md):
    // scripts and styles from this origin plus the SHA-256 hashes of the inline ones Astro emits (island
    // runtime, hydration directives, inlined bundles and stylesheets), computed at build time; no 'unsafe-inline'.
    csp: {
      algorithm: 'SHA-256',
      directives: [...CSP_DIRECTIVES],
      scriptDirective: { resources: ["'self'"] },
      styleDirective: { resources: ["'self'"] },
    },
  },
  // No highlighted code in our content; Shiki's highlighting would write inline style attributes, which the CSP refuses.
  markdown: { syntaxHighlight: false },
  build: { inlineStylesheets: 'auto' },
  prefetch: false,
  devToolbar: { enabled: false },
  vite: {
    plugins: [rememberedCspDigests, nativeIslandIds, singleRendererNoCheck, wideChunksAsBytes],
    // Stylesheets up to 20 kB (uncompressed) are inlined (build.inlineStylesheets 'auto' uses this limit):
    // the landers' own CSS no longer blocks the first paint as a second request; the shared Bootstrap
    // bundle (~160 kB) stays a cached file. Images come from /public and /photos, not from Vite.
    build: { assetsInlineLimit: 20_000 },
    css: { preprocessorOptions: { scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] } } },
    ssr: { external: ['@electric-sql/pglite', 'sharp', '@node-rs/argon2', 'pino', 'postgres'] },
  },
});
