/**
 * Removes links from text a visitor wrote before we relay it in a mail (SEC-05): anything a mail
 * client would make clickable, so our mail can never carry a stranger's link. Replaced by `placeholder`
 * (a translated "[link removed]"):
 * - URLs with a scheme (`https://…`, `ftp://…`, `hxxp://…`) and `mailto:`/`javascript:`/`data:` URIs;
 * - e-mail addresses;
 * - bare host names that end in a real public suffix (`evil.example.com/path`, `bit.ly/x`, `EVIL.COM`,
 *   `münchen.de`), decided by the Public Suffix List (tldts), so `Mr.Smith`, `e.g.` or `file.txt` stay;
 * - IPv4 addresses (with or without a path) and `www.` names.
 * Ideographic and full-width full stops, which browsers read as dots in host names, become plain dots first.
 */
import { parse } from 'tldts';

// A scheme URL, or a special URI without slashes.
const SCHEME_URL = /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s<>"]*/giu;
const SPECIAL_URI = /\b(?:mailto|javascript|data|vbscript|file):[^\s<>"]+/giu;
// Name labels joined by dots (optionally with user@ before and :port, /path, ?query, #hash after).
const HOST_LIKE = /(?<![\p{L}\p{N}_.@-])(?:[\p{L}\p{N}_%+.-]+@)?(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})\.)+[\p{L}\p{N}-]{2,63}(?::\d{1,5})?(?:[/?#][^\s<>"]*)?/giu;
const IPV4 = /(?<![\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?:[/?#][^\s<>"]*)?/gu;

function isLinkLike(candidate: string): boolean {
  const withoutUser = candidate.includes('@') ? candidate.slice(candidate.lastIndexOf('@') + 1) : candidate;
  const host = withoutUser.split(/[:/?#]/, 1)[0]!.toLowerCase();
  if (host.startsWith('www.')) return true;
  const parsed = parse(host, { allowPrivateDomains: false });
  return parsed.isIcann === true && parsed.domain !== null;
}

/** Sentence punctuation right after a link ("see evil.com/x, then") is kept; mail clients leave it out too. */
const TRAILING = /[.,;:!?)\]'"]+$/u;

/** The punctuation to keep after a link: a closing bracket only when the link did not open one. */
function trailing(match: string): string {
  const tail = TRAILING.exec(match)?.[0] ?? '';
  const body = match.slice(0, match.length - tail.length);
  let keep = tail;
  if (body.includes('(')) keep = keep.replace(/^[^)]*\)/u, (s) => s.replace(')', ''));
  if (body.includes('[')) keep = keep.replace(']', '');
  return keep;
}

/** `text` with every link-like part replaced by `placeholder`. */
export function stripLinks(text: string, placeholder: string): string {
  const replace = (match: string) => placeholder + trailing(match);
  return text
    .replace(/[\u3002\uFF0E\uFF61]/gu, '.')
    .replace(SCHEME_URL, replace)
    .replace(SPECIAL_URI, replace)
    .replace(IPV4, replace)
    .replace(HOST_LIKE, (match) => (isLinkLike(match.replace(TRAILING, '')) ? replace(match) : match));
}
