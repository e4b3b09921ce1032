/**
 * Browser entry of the client plumbing (loaded by ClientBoot.astro): reads the page's boot data from
 * `<script type="application/json" id="app-boot">` and starts {@link startClient} with the real browser.
 */
import { browserEnv, readBootData, startClient } from './boot';

// After the first paint (a frame, then a task): the plumbing's start-up work does not stand between the
// page's HTML and CSS and what the visitor first sees (Lighthouse's LCP on `/`).
requestAnimationFrame(() => setTimeout(() => startClient(readBootData(document), browserEnv(window)), 0));
