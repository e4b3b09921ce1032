/**
 * Operator pages reached at `/{token}` (STA-01): a title and a plain-text body per site, token and
 * language, stored in `token_pages`. The visitor's language is preferred, then nl (the fallback
 * language), then the site's own language.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tokenPages } from '../../db/schema';
import { FALLBACK_LANGUAGE, type Language } from '../../shared/languages';
import type { Settings } from '../../shared/settings';

/** A token is one path segment of 3–64 lower-case letters, digits and dashes. */
export const TOKEN_PATTERN = /^[a-z0-9-]{3,64}$/;

/** The token of a path like `/over-ons` (a trailing slash is allowed); null for anything else. */
export function tokenFromPath(pathname: string): string | null {
  const match = /^\/([^/]+)\/?$/.exec(pathname);
  const token = match?.[1];
  return token && TOKEN_PATTERN.test(token) ? token : null;
}

export interface TokenPage {
  token: string;
  language: string;
  title: string;
  paragraphs: string[];
}

/** Splits a plain-text body into paragraphs at blank lines; single line breaks stay inside a paragraph. */
export function bodyParagraphs(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** The page for `token` on the site in the best available language, or null when there is none. */
export async function findTokenPage(db: Db, settings: Pick<Settings, 'id' | 'domain_language'>, token: string, lang: Language): Promise<TokenPage | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const preference = [...new Set([lang, FALLBACK_LANGUAGE, settings.domain_language])];
  const rows = await db
    .select({ token: tokenPages.token, language: tokenPages.language, title: tokenPages.title, body: tokenPages.body })
    .from(tokenPages)
    .where(and(eq(tokenPages.siteId, settings.id), eq(tokenPages.token, token), inArray(tokenPages.language, preference)));
  rows.sort((a, b) => preference.indexOf(a.language as Language) - preference.indexOf(b.language as Language));
  const row = rows[0];
  return row ? { token: row.token, language: row.language, title: row.title, paragraphs: bodyParagraphs(row.body) } : null;
}
