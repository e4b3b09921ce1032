import { describe, expect, it } from 'vitest';
import type { MemberCard } from '../../server/members/listing';
import { escapeAttribute, escapeText, memberCardHtml, type CardContext } from './member-card-html';

const context: CardContext = {
  prefix: 'https://cdn.example',
  fictionalWarning: 'Fictief "profiel" & meer',
  fictionalSingular: 'fictief profiel',
  newLabel: 'Nieuw',
  verifiedLabel: 'Geverifieerd profiel',
  ageLocation: (age, place) => `${age} jaar, ${place}`,
};

const card = (extra: Partial<MemberCard> = {}): MemberCard =>
  ({ id: 7, name: 'Sanne', age: 30, city: null, region: 'Utrecht', country: 'NL', fictional: false, verified: false, image: 'a-main.webp', thumb: 'a-thumb.webp', ...extra }) as MemberCard;

describe('member cards as one string', () => {
  it('MEM-05 VER-01 LIK-02 a card carries the photo, name, age and place, and the fictional, verified and new marks where they apply', () => {
    const plain = memberCardHtml(card(), context);
    expect(plain).toBe(
      '<li class="member-card" data-member-id="7"><a href="/members/7" class="member-card-link"><span class="member-card-photo"><img src="https://cdn.example/photos/a-main.webp" srcset="https://cdn.example/photos/a-thumb.webp 160w, https://cdn.example/photos/a-main.webp 480w" sizes="(min-width: 992px) 25vw, (min-width: 576px) 33vw, 50vw" width="480" height="600" alt="" loading="lazy" decoding="async"></span><span class="member-info"><strong class="member-name">Sanne</strong><span class="member-meta">30 jaar, Utrecht</span></span></a></li>',
    );
    const marked = memberCardHtml(card({ fictional: true, verified: true, city: 'Zeist' }), context, { eager: true, href: '/likes/m/7', isNew: true });
    expect(marked).toContain('href="/likes/m/7"');
    expect(marked).toContain('loading="eager" decoding="async" fetchpriority="high"');
    expect(marked).toContain('<span class="member-mark member-mark-fictional fictional-label" title="Fictief &quot;profiel&quot; &amp; meer" data-fictional>fictief profiel</span>');
    expect(marked).toContain('<span class="member-mark member-mark-new new-label" data-like-new>Nieuw</span>');
    expect(marked).toContain('<strong class="member-name">Sanne<span class="verified-mark" role="img" aria-label="Geverifieerd profiel"');
    expect(marked).toContain('30 jaar, Zeist');
    expect(memberCardHtml(card({ thumb: null, image: null }), context)).toContain('<img src="/no-photo.svg" width="480" height="600" alt="" loading="lazy">');
  });

  it('what a member wrote is escaped as Astro escapes it: no markup of theirs reaches the page', () => {
    const hostile = memberCardHtml(card({ name: '<img src=x onerror=alert(1)>"\'&', city: '"><script>alert(1)</script>', image: 'x" onload="alert(1)', thumb: 't&"' }), context);
    expect(hostile).not.toContain('<img src=x');
    expect(hostile).not.toContain('<script>');
    expect(hostile).not.toContain('" onload="');
    expect(hostile).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(hostile).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(escapeText(`a&b<c>d'e"f`)).toBe('a&amp;b&lt;c&gt;d&#39;e&quot;f');
    expect(escapeAttribute(`a&b<c>d'e"f`)).toBe("a&amp;b<c>d'e&quot;f");
  });
});
