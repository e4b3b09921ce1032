// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { CSP_DIRECTIVES } from './src/server/web/headers.ts';
import { astroPatchesPlugin } from './scripts/astro-patches.mjs';

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
    // Astro's own code changed for what member pages cost, each change tested (scripts/astro-patches.mjs).
    plugins: [astroPatchesPlugin()],
    // Stylesheets up to 20 kB (uncompressed) are inlined (build.inlineStylesheets 'auto' uses this limit):
    // the landers' own CSS no longer blocks the first paint as a second request; the shared Bootstrap
    // bundle (~160 kB) stays a cached file. Images come from /public and /photos, not from Vite.
    build: { assetsInlineLimit: 20_000 },
    css: { preprocessorOptions: { scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] } } },
    ssr: { external: ['@electric-sql/pglite', 'sharp', '@node-rs/argon2', 'pino', 'postgres'] },
  },
});
