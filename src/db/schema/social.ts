/**
 * What members do to each other (issue 9): likes (a mutual like is a match) and blocks. Every row joins
 * two users of the same site; the services check the site, the schema keeps the pairs unique.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './members';
import { sites } from './sites';

/** Where a like was given: a profile or list, the swipe game (4 a day, GAME-02) or the match finder. */
export type LikeSource = 'profile' | 'swipe' | 'match_finder';

/** A like from one member to another (LIK-01). Liking twice is the same like; unliking deletes the row. */
export const likes = pgTable(
  'likes',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    likerId: integer('liker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    likedId: integer('liked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').$type<LikeSource>().notNull().default('profile'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the liked member opened the liker's profile (LIK-02): until then the like is 'new'. */
    seenAt: timestamp('seen_at', { withTimezone: true }),
    /** When the liked member was shown this like (or the match it made) in the 'New like' modal (LIK-03). */
    shownAt: timestamp('shown_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('likes_pair').on(t.likerId, t.likedId),
    index('likes_received').on(t.likedId, t.createdAt.desc(), t.id.desc()),
    index('likes_given').on(t.likerId, t.createdAt.desc(), t.id.desc()),
    check('likes_not_self', sql`${t.likerId} <> ${t.likedId}`),
  ],
);

/** A block (BLK-01): the two members vanish from each other's search, likes, games and chats. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked').on(t.blockedId), check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`)],
);
