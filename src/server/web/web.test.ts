import { describe, expect, it } from 'vitest';
import { chooseLanguage } from './locale';
import { entryWarningApplies, trackingFromCookie, trackingFromQuery, visitorCountry } from './visitor';
import { safeNext } from './session-cookie';
import { isSecureRequest } from './cookies';

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
    expect(visitorCountry(new Headers({ 'cf-ipcountry': 'de' }), 'cf-ipcountry', { geoip_country: 'NL' })).toBe('DE');
    expect(visitorCountry(new Headers({ 'x-country': 'BE' }), 'x-country', { geoip_country: 'NL' })).toBe('BE');
    expect(visitorCountry(new Headers({ 'cf-ipcountry': 'XX' }), 'cf-ipcountry', { geoip_country: 'NL' })).toBe('NL');
    expect(visitorCountry(new Headers(), 'cf-ipcountry', { geoip_country: 'NL' })).toBe('NL');
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
  it('only same-site paths are followed', () => {
    expect(safeNext('/members?page=2', '/')).toBe('/members?page=2');
    expect(safeNext('//evil.example', '/')).toBe('/');
    expect(safeNext('/\\evil.example', '/')).toBe('/');
    expect(safeNext('https://evil.example', '/')).toBe('/');
  });
  it('AUTH-04 cookies are Secure behind HTTPS, and a proxy is trusted only when configured', () => {
    expect(isSecureRequest(new URL('https://a/'), new Headers(), false)).toBe(true);
    const forwarded = new Headers({ 'x-forwarded-proto': 'https' });
    expect(isSecureRequest(new URL('http://a/'), forwarded, false)).toBe(false);
    expect(isSecureRequest(new URL('http://a/'), forwarded, true)).toBe(true);
  });
});
