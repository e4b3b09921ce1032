/**
 * Keyboard movement in the chat's pickers (CHT-07): arrow keys in a grid of buttons, and the modal's
 * focus trap. Pure view helpers, tested without a DOM.
 */

/**
 * The index focus moves to in a grid of `count` buttons with `columns` per row for `key`
 * (arrows, Home, End), or null when the key is not a grid key. Stays at the edges.
 */
export function gridMove(index: number, key: string, count: number, columns: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
      return Math.min(index + 1, last);
    case 'ArrowLeft':
      return Math.max(index - 1, 0);
    case 'ArrowDown':
      return index + columns <= last ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/** The elements inside `root` that Tab can reach, in order (for the modal's focus trap). */
export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where Tab (or Shift+Tab) from `index` of `count` focusable elements goes, wrapping at the ends. */
export function trapTab(index: number, count: number, backwards: boolean): number {
  if (count === 0) return -1;
  if (index < 0) return backwards ? count - 1 : 0;
  return backwards ? (index - 1 + count) % count : (index + 1) % count;
}
