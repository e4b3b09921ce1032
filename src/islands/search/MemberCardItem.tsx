/**
 * One member in the search grid: the island's twin of src/components/members/MemberCard.astro (same
 * markup and classes), with the fictional label on every fictional profile (MEM-05).
 */
import type { ClientTranslate } from '../../i18n/client';
import type { MemberCard } from '../../stores/search';

export interface CardSettings {
  /** The site's `cdn_prefix` for photo URLs. */
  cdnPrefix: string;
  /** The site's `fictional_singular` label and `fictional_warning` (MEM-05). */
  fictionalLabel: string;
  fictionalWarning: string;
  /** The verified mark's name (VER-01). */
  verifiedLabel: string;
}

export function MemberCardItem({ member, settings, eager, t }: { member: MemberCard; settings: CardSettings; eager: boolean; t: ClientTranslate }) {
  const place = member.city ?? member.region ?? member.country;
  const prefix = settings.cdnPrefix;
  return (
    <li className="member-card" data-member-id={member.id}>
      <a href={`/members/${member.id}`} className="member-card-link">
        <span className="member-card-photo">
          {member.thumb && member.image ? (
            <img
              src={`${prefix}/photos/${member.image}`}
              srcSet={`${prefix}/photos/${member.thumb} 160w, ${prefix}/photos/${member.image} 480w`}
              sizes="(min-width: 992px) 25vw, (min-width: 576px) 33vw, 50vw"
              width={480}
              height={600}
              alt=""
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
            />
          ) : (
            <img src="/no-photo.svg" width={480} height={600} alt="" loading="lazy" />
          )}
          {member.fictional && (
            <span className="member-mark member-mark-fictional fictional-label" title={settings.fictionalWarning} data-fictional>
              {settings.fictionalLabel}
            </span>
          )}
        </span>
        <span className="member-info">
          <strong className="member-name">
            {member.name}
            {member.verified && <VerifiedMark label={settings.verifiedLabel} />}
          </strong>
          <span className="member-meta">{t('members:age_location', { age: member.age, place, count: member.age })}</span>
        </span>
      </a>
    </li>
  );
}

/** A card's place while the next page loads (a shimmer, still under reduced motion). */
export function MemberCardSkeleton() {
  return (
    <li className="member-card member-card-skeleton" aria-hidden="true" data-card-skeleton>
      <span className="skeleton-card d-block" />
      <span className="member-info">
        <span className="skeleton-text d-block w-75" />
        <span className="skeleton-text d-block w-50" />
      </span>
    </li>
  );
}

/** VER-01: the verified mark beside a name: a check in a blue circle, named for screen readers. */
export function VerifiedMark({ label }: { label: string }) {
  return (
    <span className="verified-mark" role="img" aria-label={label} title={label} data-verified>
      <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="11" fill="currentColor" />
        <path d="M9.5 16.2 5.8 12.5l1.4-1.4 2.3 2.3 6.3-6.3 1.4 1.4z" fill="#fff" />
      </svg>
    </span>
  );
}
