import { describe, expect, it } from 'vitest';
import { chooseLanguage } from './locale';
import { entryWarningApplies, visitorCountry } from './visitor';
import { trackingFromCookie, trackingFromQuery } from '../../shared/tracking';
import { safeNext } from './session-cookie';
import { staffNext } from './staff-guard';
import { parseCursor } from './likes';
import { requestEdge, parseTrustedProxies } from '../config/proxy';

const site = { languages: ['de', 'en', 'nl'] as const, domain_language: 'de' as const };

describe('language choice', () => {
  it('I18N-02 the lang cookie decides when it names one of the site’s languages', () => {
    expect(chooseLanguage('nl', { ...site, languages: [...site.languages] })).toEqual({ lang: 'nl', setCookie: false });
  });
  it('SITE-04 without a usable cookie the domain language is used and written to the cookie', () => {
    expect(chooseLanguage(undefined, { ...site, languages: [...site.languages] })).toEqual({ lang: 'de', setCookie: true });
    expect(chooseLanguage('fi', { ...site, languages: [...site.languages] })).toEqual({ lang: 'de', setCookie: true });
    expect(chooseLanguage('xx', { ...site, languages: [...site.languages] })).toEqual({ lang: 'de', setCookie: true });
  });
});

describe('entry warning', () => {
  const base = { accepted: false, enabled: true };
  it('LAY-02 shows in the default layout until accepted or when the site turns it off', () => {
    expect(entryWarningApplies({ ...base, layout: 'default', country: 'FR' })).toBe(true);
    expect(entryWarningApplies({ ...base, layout: 'default', country: 'FR', accepted: true })).toBe(false);
    expect(entryWarningApplies({ ...base, layout: 'default', country: 'FR', enabled: false })).toBe(false);
  });
  it('LAY-01 in the chat layout only visitors from NL and DE get it; landers and empty pages never', () => {
    expect(entryWarningApplies({ ...base, layout: 'chat', country: 'NL' })).toBe(true);
    expect(entryWarningApplies({ ...base, layout: 'chat', country: 'DE' })).toBe(true);
    expect(entryWarningApplies({ ...base, layout: 'chat', country: 'BE' })).toBe(false);
    expect(entryWarningApplies({ ...base, layout: 'lander', country: 'NL' })).toBe(false);
    expect(entryWarningApplies({ ...base, layout: 'empty', country: 'NL' })).toBe(false);
  });
  it('LAY-01 the country comes from the configured header, else the site’s geoip setting', () => {
    expect(visitorCountry(new Headers({ 'cf-ipcountry': 'de' }), 'cf-ipcountry', { geoip_country: 'NL' }, true)).toBe('DE');
    expect(visitorCountry(new Headers({ 'x-country': 'BE' }), 'x-country', { geoip_country: 'NL' }, true)).toBe('BE');
    expect(visitorCountry(new Headers({ 'cf-ipcountry': 'XX' }), 'cf-ipcountry', { geoip_country: 'NL' }, true)).toBe('NL');
    expect(visitorCountry(new Headers(), 'cf-ipcountry', { geoip_country: 'NL' }, true)).toBe('NL');
  });
  it('SEC-10 the country header is believed only from a trusted proxy', () => {
    expect(visitorCountry(new Headers({ 'cf-ipcountry': 'DE' }), 'cf-ipcountry', { geoip_country: 'NL' }, false)).toBe('NL');
  });
});

describe('tracking record', () => {
  it('CLI-04 takes network, ref and sub1..sub3 from the query and drops bad values', () => {
    const q = new URLSearchParams('network=adnet&ref=r1&sub1=a&sub2=<script>&sub3=c&other=1');
    expect(trackingFromQuery(q)).toEqual({ network: 'adnet', ref: 'r1', sub1: 'a', sub3: 'c' });
    expect(trackingFromQuery(new URLSearchParams('q=1'))).toBeNull();
  });
  it('CLI-04 reads the stored record back, ignoring a tampered cookie', () => {
    expect(trackingFromCookie(JSON.stringify({ network: 'n' }))).toEqual({ network: 'n' });
    expect(trackingFromCookie('{bad')).toBeNull();
    expect(trackingFromCookie(JSON.stringify({ network: 'a b c' }))).toBeNull();
  });
});

describe('redirect targets and secure cookies', () => {
  it('SEC-02 same-site paths are followed, normalised', () => {
    expect(safeNext('/members?page=2', '/')).toBe('/members?page=2');
    expect(safeNext('/settings#email', '/')).toBe('/settings#email');
    expect(safeNext('/a/../members', '/')).toBe('/members');
    expect(safeNext('/members?q=a%20b', '/')).toBe('/members?q=a%20b');
  });
  it.each([
    ['//evil.example', 'protocol-relative'],
    ['/\\evil.example', 'slash-backslash'],
    ['\\\\evil.example', 'backslashes'],
    ['/x\\..\\..\\\\evil.example', 'backslash anywhere'],
    ['https://evil.example', 'absolute'],
    ['javascript:alert(1)', 'other scheme'],
    ['/\t/evil.example/x', 'tab (browsers drop it: //evil.example)'],
    ['/\n/evil.example', 'line feed'],
    ['/\r\n/evil.example', 'CR/LF'],
    ['/\u0000/evil.example', 'NUL'],
    ['/ /evil.example', 'space'],
    ['/%09/evil.example/x', 'encoded tab'],
    ['/%0d%0a/evil.example', 'encoded CR/LF'],
    ['/%2F/evil.example', 'encoded slash'],
    ['/%2f%2fevil.example', 'encoded slashes'],
    ['/%5C/evil.example', 'encoded backslash'],
    ['/\u200b/evil.example', 'zero-width space'],
    ['members', 'relative'],
    ['', 'empty'],
  ])('SEC-02 %j is refused (%s)', (value) => {
    expect(safeNext(value, '/home')).toBe('/home');
  });
  it('SEC-02 over-long targets are refused', () => {
    expect(safeNext(`/${'a'.repeat(600)}`, '/')).toBe('/');
  });
  it('SEC-19 the staff login goes back to a back-office path that passes the same rule, else to /admin', () => {
    expect(staffNext('/admin/members/7?q=a%20b')).toBe('/admin/members/7?q=a%20b');
    expect(staffNext('/admin')).toBe('/admin');
    for (const value of [
      null,
      '/admin\r\nX:1',
      '/admin\nSet-Cookie: x=1',
      '/admin\u2028',
      '//evil.example',
      '/admin/../members',
      '/members',
      '/administrator',
      '/admin/%2F%2Fevil',
      '/admin/login',
      '/admin/logout?x=1',
      'https://evil.example',
    ]) {
      expect(staffNext(value)).toBe('/admin');
    }
  });
});

describe('proxy trust', () => {
  const one = parseTrustedProxies('1');
  const headers = (xff?: string, proto?: string) => new Headers({ ...(xff ? { 'x-forwarded-for': xff } : {}), ...(proto ? { 'x-forwarded-proto': proto } : {}) });
  it('SEC-01 without TRUST_PROXY forwarded headers are ignored: the socket decides', () => {
    expect(requestEdge(headers('203.0.113.9', 'https'), '10.0.0.2', false, null)).toEqual({ clientIp: '10.0.0.2', secure: false, viaProxy: false });
    expect(requestEdge(headers(), '::ffff:192.0.2.1', true, null)).toEqual({ clientIp: '192.0.2.1', secure: true, viaProxy: false });
  });
  it('SEC-01 one trusted hop: the client is the address the proxy appended, not the one the client wrote', () => {
    expect(requestEdge(headers('203.0.113.9'), '10.0.0.2', false, one).clientIp).toBe('203.0.113.9');
    // The client sent its own X-Forwarded-For; the proxy appended the real address on the right.
    expect(requestEdge(headers('1.2.3.4, 203.0.113.9'), '10.0.0.2', false, one).clientIp).toBe('203.0.113.9');
    expect(requestEdge(headers('not-an-ip, 203.0.113.9'), '10.0.0.2', false, one).clientIp).toBe('203.0.113.9');
  });
  it('SEC-01 the forwarded scheme of the trusted hop makes the request secure', () => {
    expect(requestEdge(headers('203.0.113.9', 'https'), '10.0.0.2', false, one).secure).toBe(true);
    // A client claiming https in front of a plain-HTTP proxy that appends its own value is not believed.
    expect(requestEdge(headers('203.0.113.9', 'https, http'), '10.0.0.2', false, one).secure).toBe(false);
  });
  it('SEC-01 two hops: the second address from the right is the client', () => {
    expect(requestEdge(headers('1.2.3.4, 203.0.113.9, 10.0.0.7'), '10.0.0.2', false, parseTrustedProxies('2')).clientIp).toBe('203.0.113.9');
    expect(requestEdge(headers(undefined), '10.0.0.2', false, parseTrustedProxies('2')).clientIp).toBe('10.0.0.2');
  });
  it('SEC-01 a list of proxies: trusted hops are skipped; a peer outside the list is the client itself', () => {
    const list = parseTrustedProxies('10.0.0.0/8, 192.0.2.7');
    expect(requestEdge(headers('1.2.3.4, 203.0.113.9, 10.1.2.3', 'https, http'), '192.0.2.7', false, list)).toEqual({ clientIp: '203.0.113.9', secure: true, viaProxy: true });
    expect(requestEdge(headers('1.2.3.4', 'https'), '198.51.100.1', false, list)).toEqual({ clientIp: '198.51.100.1', secure: false, viaProxy: false });
  });
  it('SEC-01 TRUSTED_PROXIES must be a hop count or addresses and ranges', () => {
    expect(parseTrustedProxies('0')).toBeNull();
    expect(parseTrustedProxies('10.0.0.0/33')).toBeNull();
    expect(parseTrustedProxies('proxy.internal')).toBeNull();
    expect(parseTrustedProxies('::1, fd00::/8')).not.toBeNull();
  });
});

describe('likes cursor', () => {
  it('SEC-19 a cursor names a calendar date and an id; anything else starts the list at the top', () => {
    expect(parseCursor('2024-02-29T10:11:12.123456Z_5')).toEqual({ at: '2024-02-29T10:11:12.123456Z', id: 5 });
    // JavaScript reads 30 February as 1 March; PostgreSQL refuses it, in the middle of the page's stream.
    expect(parseCursor('2024-02-30T00:00:00Z_5')).toBeNull();
    expect(parseCursor('2023-02-29T00:00:00Z_5')).toBeNull();
    expect(parseCursor('2024-01-01T24:00:00Z_5')).toBeNull();
    expect(parseCursor('2024-01-01T00:00:00Z_2147483648')).toBeNull();
    expect(parseCursor('2024-01-01T00:00:00Z_0')).toBeNull();
  });
});
