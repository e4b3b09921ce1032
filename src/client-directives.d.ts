/** Types of the project's own `client:` directives (astro.config.mjs registers them). */
import type { InteractionOptions } from './client/directives/interaction';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Load and hydrate the island on the first interaction with one of its controls (PERF-02). */
    'client:interaction'?: InteractionOptions;
  }
}
