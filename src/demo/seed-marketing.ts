/**
 * Marketing content every site needs before it can sell: credit packages (PREM-01) and a demo operator
 * page at `/{token}` (STA-01). Unlike the demo seed, which leaves a database with sites alone, this runs
 * on every start: each site that has no packages gets the default packages, and each site that has no
 * token page gets its "about us" page. Sites that already have some are never touched, so an operator's
 * own packages and pages stay as they are.
 */
import { eq, sql } from 'drizzle-orm';
import { SCHEMA_LOCK_ID, type Db } from '../db/client';
import { companies, creditPackages, sites, tokenPages } from '../db/schema';

export interface PackageSeed {
  credits: number;
  priceCents: number;
  highlighted?: boolean;
}

/** Packages by site domain; a site not listed gets DEFAULT_PACKAGES. All EUR for now. */
export const DEMO_PACKAGES: Readonly<Record<string, readonly PackageSeed[]>> = {
  'flirtlokaal.nl': [
    { credits: 50, priceCents: 995 },
    { credits: 125, priceCents: 1995 },
    { credits: 300, priceCents: 3995, highlighted: true },
    { credits: 650, priceCents: 7495 },
    { credits: 1200, priceCents: 12_995 },
  ],
  'reifekontakte.de': [
    { credits: 60, priceCents: 1295 },
    { credits: 150, priceCents: 2795 },
    { credits: 350, priceCents: 5495, highlighted: true },
    { credits: 800, priceCents: 9995 },
  ],
};

export const DEFAULT_PACKAGES: readonly PackageSeed[] = [
  { credits: 50, priceCents: 995 },
  { credits: 150, priceCents: 2495 },
  { credits: 350, priceCents: 4995, highlighted: true },
  { credits: 800, priceCents: 9995 },
];

export const PACKAGE_CURRENCY = 'EUR';

interface TokenPageTemplate {
  title: string;
  body: (facts: { site: string; company: string; city: string; email: string }) => string;
}

/** The demo "about us" page per language; the token follows the site's language. */
const ABOUT_TOKENS: Readonly<Record<string, string>> = { nl: 'over-ons', de: 'ueber-uns' };
const ABOUT_PAGES: Readonly<Record<'en' | 'nl' | 'de', TokenPageTemplate>> = {
  nl: {
    title: 'Over ons',
    body: ({ site, company, city, email }) =>
      [
        `${site} is een datingsite voor volwassenen die zin hebben in flirten, chatten en nieuwe contacten. Aanmelden is gratis; voor berichten gebruik je credits.`,
        `${site} wordt gemaakt door een klein team in ${city} en uitgegeven door ${company}. We controleren nieuwe foto's voordat ze zichtbaar worden en reageren snel op meldingen van leden.`,
        `Een vraag, idee of klacht? Mail ons op ${email}, we antwoorden binnen twee werkdagen.`,
      ].join('\n\n'),
  },
  de: {
    title: 'Über uns',
    body: ({ site, company, city, email }) =>
      [
        `${site} ist eine Kontaktseite für Erwachsene, die Lust auf Flirts, Chats und neue Bekanntschaften haben. Die Anmeldung ist kostenlos; für Nachrichten verwendest du Credits.`,
        `${site} wird von einem kleinen Team in ${city} betrieben und von ${company} herausgegeben. Neue Fotos prüfen wir, bevor sie sichtbar werden, und auf Meldungen von Mitgliedern reagieren wir schnell.`,
        `Eine Frage, eine Idee oder eine Beschwerde? Schreib uns an ${email}, wir antworten innerhalb von zwei Werktagen.`,
      ].join('\n\n'),
  },
  en: {
    title: 'About us',
    body: ({ site, company, city, email }) =>
      [
        `${site} is a dating site for adults who feel like flirting, chatting and meeting new people. Signing up is free; messages are paid for with credits.`,
        `${site} is made by a small team in ${city} and published by ${company}. We check new photos before they become visible and act quickly on reports from members.`,
        `A question, an idea or a complaint? Write to ${email}; we answer within two working days.`,
      ].join('\n\n'),
  },
};

export interface MarketingResult {
  /** Sites that received packages / a token page in this run. */
  packageSites: number[];
  tokenPageSites: number[];
}

/**
 * Inserts the default credit packages and the demo token page for every site that has none.
 * Idempotent, and safe when several processes start together on one PostgreSQL (they take turns).
 */
export async function ensureMarketingContent(db: Db): Promise<MarketingResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_ID}::bigint)`);
    const rows = await tx
      .select({
        id: sites.id,
        name: sites.name,
        domain: sites.domain,
        domainLanguage: sites.domainLanguage,
        supportEmail: sites.supportEmail,
        company: companies.name,
        city: companies.city,
        packages: sql<number>`(select count(*) from ${creditPackages} where ${creditPackages.siteId} = ${sites.id})`.mapWith(Number),
        pages: sql<number>`(select count(*) from ${tokenPages} where ${tokenPages.siteId} = ${sites.id})`.mapWith(Number),
      })
      .from(sites)
      .innerJoin(companies, eq(companies.id, sites.companyId))
      .orderBy(sites.id);
    const result: MarketingResult = { packageSites: [], tokenPageSites: [] };
    for (const site of rows) {
      if (site.packages === 0) {
        const seeds = DEMO_PACKAGES[site.domain] ?? DEFAULT_PACKAGES;
        await tx
          .insert(creditPackages)
          .values(seeds.map((p, i) => ({ siteId: site.id, credits: p.credits, priceCents: p.priceCents, currency: PACKAGE_CURRENCY, highlighted: p.highlighted ?? false, sortOrder: i })));
        result.packageSites.push(site.id);
      }
      if (site.pages === 0) {
        const facts = { site: site.name, company: site.company, city: site.city, email: site.supportEmail };
        const token = ABOUT_TOKENS[site.domainLanguage] ?? 'about-us';
        const languages = [...new Set([site.domainLanguage, 'en'])];
        await tx
          .insert(tokenPages)
          .values(
            languages.map((language) => {
              const template = ABOUT_PAGES[language as keyof typeof ABOUT_PAGES] ?? ABOUT_PAGES.en;
              return { siteId: site.id, token, language, title: template.title, body: template.body(facts) };
            }),
          )
          .onConflictDoNothing();
        result.tokenPageSites.push(site.id);
      }
    }
    return result;
  });
}
