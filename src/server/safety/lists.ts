/**
 * SAFE-02: the safety phrase lists as the back office edits them and the chat reads them. A language
 * without a stored row uses its built-in list (phrases.ts); saving stores the list, an empty one
 * included, audited. The chat's matcher over all languages is kept for CACHE_MS per database; saving in
 * this process drops it at once, other processes see the change within CACHE_MS.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { safetyPhrases } from '../../db/schema';
import { LANGUAGES, type Language } from '../../shared/languages';
import { audit } from '../audit';
import type { Clock } from '../clock';
import { cleanPhraseList, DEFAULT_SAFETY_PHRASES, safetyMatcher, type SafetyMatcher } from './phrases';

export const CACHE_MS = 30_000;

export interface SafetyPhraseList {
  language: Language;
  phrases: string[];
  /** Whether the list is the built-in one (no admin saved this language yet). */
  builtIn: boolean;
  updatedAt: Date | null;
}

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/** Every language's list, in the order of LANGUAGES. */
export async function safetyPhraseLists(db: Db): Promise<SafetyPhraseList[]> {
  const rows = await db.select().from(safetyPhrases);
  const stored = new Map(rows.filter((r) => isLanguage(r.language)).map((r) => [r.language, r]));
  return LANGUAGES.map((language) => {
    const row = stored.get(language);
    return row ? { language, phrases: row.phrases, builtIn: false, updatedAt: row.updatedAt } : { language, phrases: [...DEFAULT_SAFETY_PHRASES[language]], builtIn: true, updatedAt: null };
  });
}

const matchers = new WeakMap<Db, { matcher: SafetyMatcher; until: number }>();

/** The matcher over every language's list (see the module comment for how long it is kept). */
export async function currentSafetyMatcher(db: Db): Promise<SafetyMatcher> {
  const cached = matchers.get(db);
  const now = Date.now();
  if (cached && cached.until > now) return cached.matcher;
  const matcher = safetyMatcher((await safetyPhraseLists(db)).map((l) => l.phrases));
  matchers.set(db, { matcher, until: now + CACHE_MS });
  return matcher;
}

/** Saves one language's list (one phrase a line), audited; answers the list as stored. */
export async function saveSafetyPhrases(deps: { db: Db; clock: Clock }, by: { id: number }, language: Language, text: string): Promise<string[]> {
  const phrases = cleanPhraseList(text.split(/\r?\n/));
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [before] = await tx.select({ phrases: safetyPhrases.phrases }).from(safetyPhrases).where(sqlLanguage(language)).for('update');
    await tx
      .insert(safetyPhrases)
      .values({ language, phrases, updatedAt: now, updatedBy: by.id })
      .onConflictDoUpdate({ target: safetyPhrases.language, set: { phrases, updatedAt: now, updatedBy: by.id } });
    await audit(tx, { staffId: by.id, action: 'safety.phrases', targetType: 'language', targetId: language, before: { phrases: before?.phrases ?? null }, after: { phrases } }, now);
  });
  matchers.delete(deps.db);
  return phrases;
}

/** Goes back to the built-in list of `language`, audited. */
export async function resetSafetyPhrases(deps: { db: Db; clock: Clock }, by: { id: number }, language: Language): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const removed = await tx.delete(safetyPhrases).where(sqlLanguage(language)).returning({ phrases: safetyPhrases.phrases });
    if (removed.length > 0)
      await audit(tx, { staffId: by.id, action: 'safety.phrases_reset', targetType: 'language', targetId: language, before: { phrases: removed[0]!.phrases }, after: { phrases: null } }, now);
  });
  matchers.delete(deps.db);
}

const sqlLanguage = (language: Language) => eq(safetyPhrases.language, language);
