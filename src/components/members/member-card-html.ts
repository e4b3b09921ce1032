/**
 * Member cards as one HTML string (MEM-05, VER-01, LIK-02): the markup MemberCard.astro rendered part by
 * part, escaped as Astro escapes (text: & < > ' "; attribute values: & and "). A list of 24 cards was
 * ~700 of the likes page's ~1,000 chunks through Astro's page writer (decision 095); as one string it is
 * one chunk. The search island's twin is src/islands/search/MemberCardItem.tsx (same markup and classes,
 * _members.scss).
 */
import type { MemberCard } from '../../server/members/listing';

/** What every card of one page shares: the site's photo prefix and fictional label, and the texts in the page's language. */
export interface CardContext {
  prefix: string;
  fictionalWarning: string;
  fictionalSingular: string;
  /** `likes:new` */
  newLabel: string;
  /** `ui:verified` */
  verifiedLabel: string;
  /** `members:age_location` for one card. */
  ageLocation: (age: number, place: string) => string;
}

/** The card context of a page's site and language. */
export function cardContext(
  site: { settings: { cdn_prefix: string; fictional_warning: string; fictional_singular: string } },
  t: (key: string, options?: Record<string, unknown>) => string,
): CardContext {
  return {
    prefix: site.settings.cdn_prefix,
    fictionalWarning: site.settings.fictional_warning,
    fictionalSingular: site.settings.fictional_singular,
    newLabel: t('likes:new'),
    verifiedLabel: t('ui:verified'),
    ageLocation: (age, place) => t('members:age_location', { age, place, count: age }),
  };
}

export interface CardOptions {
  /** The first cards of a page load at once (the rest lazily). */
  eager?: boolean;
  /** Where the card leads (the likes lists open `/likes/m/{id}`); the profile by default. */
  href?: string;
  /** An unseen like (LIK-02). */
  isNew?: boolean;
}

const TEXT = /[&<>'"]/g;
const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };

/** Text between tags, escaped as Astro escapes an expression. */
export function escapeText(value: string | number): string {
  const text = String(value);
  return text.replace(TEXT, (c) => TEXT_ENTITIES[c]!);
}

/** An attribute's value in double quotes, escaped as Astro escapes one. */
export function escapeAttribute(value: string | number): string {
  const text = String(value);
  return text.includes('&') || text.includes('"') ? text.replace(/&/g, '&amp;').replace(/"/g, '&quot;') : text;
}

/** VER-01's mark (VerifiedMark.astro's markup). */
export function verifiedMarkHtml(label: string): string {
  const l = escapeAttribute(label);
  return `<span class="verified-mark" role="img" aria-label="${l}" title="${l}" data-verified><svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="11" fill="currentColor"></circle><path d="M9.5 16.2 5.8 12.5l1.4-1.4 2.3 2.3 6.3-6.3 1.4 1.4z" fill="#fff"></path></svg></span>`;
}

/** One card: photo (4:5), name, age and place; the fictional label, the 'new' mark and the verified mark where they apply. */
export function memberCardHtml(member: MemberCard, context: CardContext, options: CardOptions = {}): string {
  const { eager = false, href = `/members/${member.id}`, isNew = false } = options;
  const place = member.city ?? member.region ?? member.country;
  const prefix = context.prefix;
  const photo = member.thumb
    ? `<img src="${escapeAttribute(`${prefix}/photos/${member.image}`)}" srcset="${escapeAttribute(`${prefix}/photos/${member.thumb} 160w, ${prefix}/photos/${member.image} 480w`)}" sizes="(min-width: 992px) 25vw, (min-width: 576px) 33vw, 50vw" width="480" height="600" alt="" loading="${eager ? 'eager' : 'lazy'}" decoding="async"${eager ? ' fetchpriority="high"' : ''}>`
    : '<img src="/no-photo.svg" width="480" height="600" alt="" loading="lazy">';
  const fictional = member.fictional
    ? `<span class="member-mark member-mark-fictional fictional-label" title="${escapeAttribute(context.fictionalWarning)}" data-fictional>${escapeText(context.fictionalSingular)}</span>`
    : '';
  const fresh = isNew ? `<span class="member-mark member-mark-new new-label" data-like-new>${escapeText(context.newLabel)}</span>` : '';
  const verified = member.verified ? verifiedMarkHtml(context.verifiedLabel) : '';
  return (
    `<li class="member-card" data-member-id="${escapeAttribute(member.id)}"><a href="${escapeAttribute(href)}" class="member-card-link"><span class="member-card-photo">${photo}${fictional}${fresh}</span>` +
    `<span class="member-info"><strong class="member-name">${escapeText(member.name)}${verified}</strong><span class="member-meta">${escapeText(context.ageLocation(member.age, place))}</span></span></a></li>`
  );
}
