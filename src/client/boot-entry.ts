/**
 * Browser entry of the client plumbing (loaded by ClientBoot.astro): reads the page's boot data from
 * `<script type="application/json" id="app-boot">` and starts {@link startClient} with the real browser.
 */
import { browserEnv, readBootData, startClient } from './boot';

startClient(readBootData(document), browserEnv(window));
