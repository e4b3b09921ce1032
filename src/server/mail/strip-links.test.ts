/** Link stripping for relayed visitor text (SEC-05): what a mail client would link goes, ordinary words stay. */
import { describe, expect, it } from 'vitest';
import { stripLinks } from './strip-links';

const strip = (text: string) => stripLinks(text, '[x]');

describe('stripLinks', () => {
  it('SEC-05 removes URLs with a scheme, special URIs, e-mail addresses, IPs and www names', () => {
    expect(strip('Visit https://evil.com/win?x=1#top now')).toBe('Visit [x] now');
    expect(strip('hxxp://evil[.]com and ftp://files.example.org/a')).toBe('[x] and [x]');
    expect(strip('javascript:alert(1) mailto:x@y.nl data:text/html,hi')).toBe('[x] [x] [x]');
    expect(strip('mail me: bad@evil.com.')).toBe('mail me: [x].');
    expect(strip('http://192.168.0.1/a and 10.0.0.1:8080/b')).toBe('[x] and [x]');
    expect(strip('www.something.invalid/path')).toBe('[x]');
  });

  it('SEC-05 removes bare host names with a real public suffix, in any case, with port, path and query', () => {
    expect(strip('see evil.com.')).toBe('see [x].');
    expect(strip('(see evil.com/x) and [https://evil.com]')).toBe('(see [x]) and [[x]]');
    expect(strip('go to EVIL.COM/promo?id=1')).toBe('go to [x]');
    expect(strip('short: bit.ly/3xYz, also evil.co.uk:8443/x and a.b.c.zip')).toBe('short: [x], also [x] and [x]');
    expect(strip('münchen.de/x and xn--80ak6aa92e.com')).toBe('[x] and [x]');
    // Full-width and ideographic full stops are read as dots by browsers.
    expect(strip('evil\uFF0Ecom and evil\u3002com')).toBe('[x] and [x]');
  });

  it('SEC-05 leaves ordinary text alone: abbreviations, names with dots, file names, numbers and dates', () => {
    const text = 'Mr.Smith said e.g. that profile Anna.B sent file.txt and index.html; I paid 3.50 euro on 12.11.2026.\n\nThanks!';
    expect(strip(text)).toBe(text);
  });
});
