/**
 * The bubbling event an island dispatches from inside itself once it listens (PERF-02): the
 * `client:interaction` directive (src/client/directives/interaction.ts) then replays a click it held.
 * Here, not in the directive's module, because islands never import `src/client/` (ARCHITECTURE.md).
 */
export const ISLAND_READY_EVENT = 'island-ready';
