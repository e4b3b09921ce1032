/**
 * What the likes API and pages share on top of the likes service (../members/likes.ts): the keyset
 * cursor as it travels in URLs and the JSON form of a like card (NAV-06, CLI-09).
 */
import type { LikeCard, LikeCursor, LikeListType } from '../members/likes';
import { parseId } from '../../shared/ids';
import { LIKE_LIST_TYPES } from '../../shared/api/likes';

export { LIKE_LIST_TYPES };

export function isLikeListType(value: string | undefined): value is LikeListType {
  return value !== undefined && (LIKE_LIST_TYPES as readonly string[]).includes(value);
}

/** A cursor in a URL: `<ISO time>_<like id>`. */
export function formatCursor(cursor: LikeCursor): string {
  return `${cursor.at}_${cursor.id}`;
}

/** `<like time, ISO 8601 UTC to the microsecond (older links: the millisecond)>_<like id>`. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([1-9]\d{0,9})$/;

/** The cursor of a URL parameter, or null when absent or malformed (the list then starts at the top). */
export function parseCursor(value: string | null | undefined): LikeCursor | null {
  const m = value ? CURSOR.exec(value) : null;
  const id = parseId(m?.[2]);
  if (!m || id === null) return null;
  // A date the calendar has: JavaScript reads '2024-02-30' as 1 March, PostgreSQL refuses it (22008), and
  // the list renders inside the page's stream, where an error cuts the page off (SEC-19).
  const time = Date.parse(m[1]!);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 19) !== m[1]!.slice(0, 19)) return null;
  return { at: m[1]!, id };
}

/** The main photo's URLs: `thumb` for cards, `match` (the full image) for the match modal. */
export function mainImage(prefix: string, card: { thumb: string | null; image: string | null }): { thumb: string; match: string } | null {
  if (!card.image) return null;
  return { thumb: `${prefix}/photos/${card.thumb ?? card.image}`, match: `${prefix}/photos/${card.image}` };
}

/** A like card as the API sends it. */
export function likeCardJson(prefix: string, card: LikeCard) {
  return {
    id: card.id,
    name: card.name,
    age: card.age,
    country: card.country,
    region: card.region,
    city: card.city,
    fictional: card.fictional,
    main_image: mainImage(prefix, card),
    like_new: card.isNew,
    liked_at: card.likedAt.toISOString(),
  };
}
