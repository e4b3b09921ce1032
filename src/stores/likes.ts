/**
 * The signed-in member's likes as the client knows them (LIK-01): `loadLikes` reads `GET /api/likes.php`
 * and sets the new-likes count that the navigation badge (NAV-01), the title (NAV-06) and the app badge
 * (CLI-09) show. The periodic refresh (CLI-08) and the match modal (LIK-03, 500 ms after it opens) call it.
 */
import { api, isAuthenticationRequired } from '../client/api';
import type { components } from '../shared/api-types';
import { setNewLikes } from './counters';

export type Likes = components['schemas']['Likes'];

/** How many of `liked_by` are still new. */
export function newLikesCount(likedBy: readonly { like_new: boolean }[]): number {
  return likedBy.reduce((n, like) => n + (like.like_new ? 1 : 0), 0);
}

/** Reloads the likes received; the new-likes count follows. Returns them, or null when the call failed. */
export async function loadLikes(): Promise<Likes | null> {
  try {
    const { data } = await api.GET('/api/likes.php');
    if (!data) return null;
    setNewLikes(newLikesCount(data.liked_by));
    return data;
  } catch (err) {
    if (isAuthenticationRequired(err)) throw err;
    return null;
  }
}
