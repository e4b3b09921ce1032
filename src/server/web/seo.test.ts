import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/languages';
import { absoluteUrl, canonicalUrl, ogLocale, robotsTxt, sitemapXml } from './seo';

describe('SEO helpers', () => {
  it('LND-01 canonical URLs are https on the domain and never carry a query string or fragment', () => {
    expect(canonicalUrl('flirtlokaal.nl', '/login')).toBe('https://flirtlokaal.nl/login');
    expect(canonicalUrl('flirtlokaal.nl', '/landers/gallery?network=x&sub1=y')).toBe('https://flirtlokaal.nl/landers/gallery');
    expect(canonicalUrl('flirtlokaal.nl', '/pages/faq#contact')).toBe('https://flirtlokaal.nl/pages/faq');
    expect(canonicalUrl('flirtlokaal.nl', '')).toBe('https://flirtlokaal.nl/');
    expect(canonicalUrl('flirtlokaal.nl', '?a=1')).toBe('https://flirtlokaal.nl/');
  });

  it('I18N-02 every interface language has an Open Graph locale', () => {
    expect(ogLocale('nl')).toBe('nl_NL');
    expect(ogLocale('de')).toBe('de_DE');
    expect(ogLocale('en')).toBe('en_GB');
    expect(ogLocale('nb')).toBe('nb_NO');
    for (const lang of LANGUAGES) expect(ogLocale(lang), lang).toMatch(new RegExp(`^${lang}_[A-Z]{2}$`));
  });

  it('site images become absolute URLs on the site; absolute URLs pass', () => {
    expect(absoluteUrl('reifekontakte.de', '/photos/a.webp')).toBe('https://reifekontakte.de/photos/a.webp');
    expect(absoluteUrl('reifekontakte.de', 'https://cdn.example/a.webp')).toBe('https://cdn.example/a.webp');
  });

  it('SITE-01 robots.txt and the sitemap name the given domain only, escaped for XML', () => {
    expect(robotsTxt('a.example')).toContain('Sitemap: https://a.example/sitemap.xml');
    expect(sitemapXml('a.example', ['/x?a=1&b=2'])).toContain('<loc>https://a.example/x?a=1&amp;b=2</loc>');
  });
});
