/**
 * Static data of the demo seed (src/demo/seed.ts): the company, the two sites, the regions of their
 * countries with a few cities each, first names, and the fragments the profile texts are built from.
 * Everything here is plain data; the choices (which name, which city, which sentence) are made by the
 * seeded PRNG in seed.ts, so the demo is the same on every machine.
 */
import type { BODY_TYPES, EYE_COLOURS, HAIR_COLOURS, Interest, RELATIONSHIP_STATUSES, SEXUALITIES, SIGNUP_REASONS, TATTOOS } from '../shared/interests';
import type { companies, sites } from '../db/schema';
import { FLIRTLOKAAL_TEXTS, REIFE_KONTAKTE_TEXTS } from './seed-site-texts';

export type CompanyInsert = typeof companies.$inferInsert & { id: number };
export type SiteInsert = typeof sites.$inferInsert & { id: number };

/** Language group of first names and profile texts. */
export type NameGroup = 'nl' | 'de';

/** The operating company (SPEC §3 company info). */
export const DEMO_COMPANY: CompanyInsert = {
  id: 1,
  name: 'Lokaal Media B.V.',
  address: 'Herengracht 182, 1016 BR',
  kvk: '81234567',
  city: 'Amsterdam',
  country: 'Nederland',
  tradenames: ['Flirtlokaal', 'Reife Kontakte'],
  vatNumbers: ['NL862341975B01'],
  supportPhone: '+31 20-123 4567',
  deleteDiscount: 50,
  added: '2023-06-01',
};

/** How the members of one demo site are drawn. */
export interface SiteMemberMix {
  /** Share of each country among the site's members; keys are the site's countries. */
  countryWeights: Record<string, number>;
  /** Probability that a member is female. */
  femaleShare: number;
  /** Age range of members, inclusive. */
  ageRange: readonly [number, number];
  /** Language of the profile texts (the site's main language). */
  aboutLanguage: NameGroup;
}

/** A demo account that can log in with a password (free and premium, on every site). */
export interface DemoAccountProfile {
  name: string;
  gender: 'male' | 'female';
  sexuality: (typeof SEXUALITIES)[number];
  age: number;
  country: string;
  regionCode: string;
  city: string;
  hairColour: (typeof HAIR_COLOURS)[number];
  eyeColour: (typeof EYE_COLOURS)[number];
  bodyType: (typeof BODY_TYPES)[number];
  relationshipStatus: (typeof RELATIONSHIP_STATUSES)[number];
  tattoos: (typeof TATTOOS)[number];
  interests: Interest[];
  signupReason: (typeof SIGNUP_REASONS)[number];
  about: string;
  /** Days between signing up and the seed's clock. */
  signupDaysAgo: number;
}

export interface DemoSite {
  row: SiteInsert;
  hosts: string[];
  members: SiteMemberMix;
  demoAccounts: { free: DemoAccountProfile; premium: DemoAccountProfile };
}

const VISIBLE_PROFILE_FIELDS = ['age', 'country', 'region', 'city', 'gender', 'sexuality', 'hair_colour', 'eye_colour', 'body_type', 'relationship_status', 'tattoos', 'interests', 'signup_reason'];

/** The two demo sites: a plain Dutch site on `localhost` and a German MILF site on `127.0.0.1`. */
export const DEMO_SITES: readonly DemoSite[] = [
  {
    row: {
      id: 1,
      isDefault: true,
      name: 'Flirtlokaal',
      indexTitle: 'Flirtlokaal – flirten en daten met singles uit Nederland en België',
      description: 'Ontmoet spontane singles bij jou in de buurt. Gratis aanmelden, direct profielen bekijken en flirten op Flirtlokaal.',
      domain: 'flirtlokaal.nl',
      domainLanguage: 'nl',
      languages: ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'nb', 'sv'],
      cdnPrefix: '',
      niche: 1,
      companyId: DEMO_COMPANY.id,
      mailName: 'Flirtlokaal',
      countries: ['NL', 'BE'],
      signups: 'all',
      loggedOutSearch: true,
      loggedOutSearchTrafficsource: false,
      geoipCountry: 'NL',
      geoipSelectedCountry: 'NL',
      enableSiteEntryPopup: true,
      pushPublicKey: null,
      supportPhone: '+31 20-123 4567',
      supportEmail: 'support@flirtlokaal.nl',
      fictionalIcon: 'fictional',
      fictionalWarning: 'Profielen met dit icoon zijn fictieve profielen. Ze worden beheerd door medewerkers van Flirtlokaal; fysiek contact met deze profielen is niet mogelijk.',
      fictionalSingular: 'fictief profiel',
      fictionalPlural: 'fictieve profielen',
      texts: FLIRTLOKAAL_TEXTS,
      visibleProfileFields: VISIBLE_PROFILE_FIELDS,
      visibleProfileNotes: true,
      searchFields: ['gender', 'country', 'region', 'age'],
      messageCredits: 10,
      photoCredits: 15,
      giftCredits: 25,
      signupCredits: 20,
      messageLength: 1000,
      minimumMessageCosts: { NL: { costs: 25, currency: 'EUR' }, BE: { costs: 25, currency: 'EUR' } },
      refundDays: 14,
      memberResell: false,
      minAge: 18,
      inviteOnly: false,
      liveCamPromo: true,
      usLegalFooter: true,
    },
    hosts: ['localhost'],
    members: { countryWeights: { NL: 0.75, BE: 0.25 }, femaleShare: 0.65, ageRange: [18, 65], aboutLanguage: 'nl' },
    demoAccounts: {
      free: {
        name: 'Sanne',
        gender: 'female',
        sexuality: 'hetero',
        age: 29,
        country: 'NL',
        regionCode: 'NH',
        city: 'Amsterdam',
        hairColour: 'blond',
        eyeColour: 'blue',
        bodyType: 'slim',
        relationshipStatus: 'single',
        tattoos: 'one',
        interests: ['travelling', 'coffee', 'music', 'dancing'],
        signupReason: 'relationship',
        about: 'Hoi, ik ben Sanne uit Amsterdam. Ik hou van reizen en een goede kop koffie. Stuur gerust een berichtje!',
        signupDaysAgo: 30,
      },
      premium: {
        name: 'Mark',
        gender: 'male',
        sexuality: 'hetero',
        age: 38,
        country: 'NL',
        regionCode: 'UT',
        city: 'Utrecht',
        hairColour: 'brown',
        eyeColour: 'green',
        bodyType: 'athletic',
        relationshipStatus: 'divorced',
        tattoos: 'none',
        interests: ['cooking', 'wine', 'hiking', 'movies', 'biking'],
        signupReason: 'adventure',
        about: 'Nuchtere Utrechter van 38 die graag kookt voor twee. Zin in iets nieuws en spannends.',
        signupDaysAgo: 120,
      },
    },
  },
  {
    row: {
      id: 2,
      isDefault: false,
      name: 'Reife Kontakte',
      indexTitle: 'Reife Kontakte – Flirts und Dates mit reifen Frauen',
      description: 'Lerne reife Frauen aus Deutschland, Österreich und der Schweiz kennen. Kostenlos anmelden und sofort losflirten.',
      domain: 'reifekontakte.de',
      domainLanguage: 'de',
      languages: ['de', 'en', 'nl'],
      cdnPrefix: '',
      niche: 6,
      companyId: DEMO_COMPANY.id,
      mailName: 'Reife Kontakte',
      countries: ['DE', 'AT', 'CH'],
      signups: 'with_trafficsource',
      loggedOutSearch: false,
      loggedOutSearchTrafficsource: false,
      geoipCountry: 'DE',
      geoipSelectedCountry: 'DE',
      enableSiteEntryPopup: true,
      pushPublicKey: null,
      supportPhone: '+49 30-2345 6789',
      supportEmail: 'support@reifekontakte.de',
      fictionalIcon: 'fictional',
      fictionalWarning: 'Profile mit diesem Symbol sind fiktive Profile. Sie werden von Mitarbeitern von Reife Kontakte betreut; ein persönliches Treffen mit diesen Profilen ist nicht möglich.',
      fictionalSingular: 'fiktives Profil',
      fictionalPlural: 'fiktive Profile',
      texts: REIFE_KONTAKTE_TEXTS,
      visibleProfileFields: VISIBLE_PROFILE_FIELDS,
      visibleProfileNotes: true,
      searchFields: ['gender', 'country', 'region', 'age'],
      messageCredits: 12,
      photoCredits: 18,
      giftCredits: 30,
      signupCredits: 15,
      messageLength: 800,
      minimumMessageCosts: {
        DE: { costs: 29, currency: 'EUR' },
        AT: { costs: 29, currency: 'EUR' },
        CH: { costs: 32, currency: 'CHF' },
      },
      refundDays: 14,
      memberResell: false,
      minAge: 18,
      inviteOnly: false,
      liveCamPromo: false,
      usLegalFooter: false,
    },
    hosts: ['127.0.0.1'],
    members: { countryWeights: { DE: 0.7, AT: 0.17, CH: 0.13 }, femaleShare: 0.88, ageRange: [35, 62], aboutLanguage: 'de' },
    demoAccounts: {
      free: {
        name: 'Petra',
        gender: 'female',
        sexuality: 'hetero',
        age: 47,
        country: 'DE',
        regionCode: 'BY',
        city: 'München',
        hairColour: 'red',
        eyeColour: 'green',
        bodyType: 'curvy',
        relationshipStatus: 'divorced',
        tattoos: 'none',
        interests: ['wine', 'theater', 'hiking', 'cooking'],
        signupReason: 'relationship',
        about: 'Hallo, ich bin Petra aus München. Ich mag Wein und Theater. Schreib mir einfach!',
        signupDaysAgo: 30,
      },
      premium: {
        name: 'Thomas',
        gender: 'male',
        sexuality: 'hetero',
        age: 52,
        country: 'DE',
        regionCode: 'HH',
        city: 'Hamburg',
        hairColour: 'grey',
        eyeColour: 'blue',
        bodyType: 'average',
        relationshipStatus: 'single',
        tattoos: 'some',
        interests: ['travelling', 'sports', 'beer', 'music', 'beach'],
        signupReason: 'chat',
        about: 'Hamburger Jung mit 52 Jahren, ehrlich und humorvoll. Ein nettes Gespräch ist für mich ein guter Anfang.',
        signupDaysAgo: 120,
      },
    },
  },
];

/** Interface language of members per country. */
export const COUNTRY_LANGUAGE: Record<string, NameGroup> = { NL: 'nl', BE: 'nl', DE: 'de', AT: 'de', CH: 'de' };

export interface RegionSeed {
  country: string;
  code: string;
  name: string;
  /** Approximate centre, degrees. */
  lat: number;
  lon: number;
  /** Rough population in 100 000s: how often members live here. */
  weight: number;
  cities: readonly string[];
}

/** Provinces and states of NL, BE, DE, AT and CH with approximate centres and a few cities. */
export const REGIONS: readonly RegionSeed[] = [
  // Nederland: 12 provincies.
  { country: 'NL', code: 'DR', name: 'Drenthe', lat: 52.86, lon: 6.62, weight: 5, cities: ['Assen', 'Emmen', 'Hoogeveen', 'Meppel'] },
  { country: 'NL', code: 'FL', name: 'Flevoland', lat: 52.53, lon: 5.6, weight: 4, cities: ['Almere', 'Lelystad', 'Dronten', 'Emmeloord'] },
  { country: 'NL', code: 'FR', name: 'Friesland', lat: 53.11, lon: 5.78, weight: 6.5, cities: ['Leeuwarden', 'Sneek', 'Heerenveen', 'Drachten'] },
  { country: 'NL', code: 'GE', name: 'Gelderland', lat: 52.06, lon: 5.94, weight: 21, cities: ['Arnhem', 'Nijmegen', 'Apeldoorn', 'Ede', 'Doetinchem'] },
  { country: 'NL', code: 'GR', name: 'Groningen', lat: 53.22, lon: 6.74, weight: 6, cities: ['Groningen', 'Delfzijl', 'Veendam', 'Stadskanaal'] },
  { country: 'NL', code: 'LI', name: 'Limburg', lat: 51.21, lon: 5.94, weight: 11, cities: ['Maastricht', 'Venlo', 'Heerlen', 'Roermond', 'Sittard'] },
  { country: 'NL', code: 'NB', name: 'Noord-Brabant', lat: 51.56, lon: 5.19, weight: 26, cities: ['Eindhoven', 'Tilburg', 'Breda', "'s-Hertogenbosch", 'Helmond'] },
  { country: 'NL', code: 'NH', name: 'Noord-Holland', lat: 52.58, lon: 4.87, weight: 29, cities: ['Amsterdam', 'Haarlem', 'Alkmaar', 'Zaandam', 'Hilversum'] },
  { country: 'NL', code: 'OV', name: 'Overijssel', lat: 52.44, lon: 6.44, weight: 12, cities: ['Zwolle', 'Enschede', 'Deventer', 'Hengelo', 'Almelo'] },
  { country: 'NL', code: 'UT', name: 'Utrecht', lat: 52.08, lon: 5.2, weight: 14, cities: ['Utrecht', 'Amersfoort', 'Veenendaal', 'Zeist', 'Nieuwegein'] },
  { country: 'NL', code: 'ZE', name: 'Zeeland', lat: 51.45, lon: 3.84, weight: 4, cities: ['Middelburg', 'Vlissingen', 'Goes', 'Terneuzen'] },
  { country: 'NL', code: 'ZH', name: 'Zuid-Holland', lat: 52.02, lon: 4.49, weight: 38, cities: ['Rotterdam', 'Den Haag', 'Leiden', 'Dordrecht', 'Delft', 'Zoetermeer'] },
  // België: 10 provincies en het Brussels Hoofdstedelijk Gewest (ISO 3166-2:BE codes, Dutch names).
  { country: 'BE', code: 'VAN', name: 'Antwerpen', lat: 51.21, lon: 4.63, weight: 19, cities: ['Antwerpen', 'Mechelen', 'Turnhout', 'Lier'] },
  { country: 'BE', code: 'VLI', name: 'Limburg', lat: 50.99, lon: 5.45, weight: 9, cities: ['Hasselt', 'Genk', 'Sint-Truiden', 'Tongeren'] },
  { country: 'BE', code: 'VOV', name: 'Oost-Vlaanderen', lat: 51.04, lon: 3.8, weight: 15.5, cities: ['Gent', 'Aalst', 'Sint-Niklaas', 'Oudenaarde'] },
  { country: 'BE', code: 'VWV', name: 'West-Vlaanderen', lat: 51.04, lon: 3.08, weight: 12, cities: ['Brugge', 'Kortrijk', 'Oostende', 'Roeselare'] },
  { country: 'BE', code: 'VBR', name: 'Vlaams-Brabant', lat: 50.88, lon: 4.57, weight: 11.5, cities: ['Leuven', 'Vilvoorde', 'Halle', 'Tienen'] },
  { country: 'BE', code: 'WBR', name: 'Waals-Brabant', lat: 50.67, lon: 4.59, weight: 4, cities: ['Waver', 'Nijvel', 'Louvain-la-Neuve'] },
  { country: 'BE', code: 'WHT', name: 'Henegouwen', lat: 50.48, lon: 3.96, weight: 13.5, cities: ['Bergen', 'Charleroi', 'Doornik', 'La Louvière'] },
  { country: 'BE', code: 'WLG', name: 'Luik', lat: 50.52, lon: 5.73, weight: 11, cities: ['Luik', 'Verviers', 'Seraing', 'Hoei'] },
  { country: 'BE', code: 'WLX', name: 'Luxemburg', lat: 49.96, lon: 5.51, weight: 3, cities: ['Aarlen', 'Bastenaken', 'Marche-en-Famenne'] },
  { country: 'BE', code: 'WNA', name: 'Namen', lat: 50.33, lon: 4.83, weight: 5, cities: ['Namen', 'Dinant', 'Gembloers'] },
  { country: 'BE', code: 'BRU', name: 'Brussel', lat: 50.85, lon: 4.35, weight: 12, cities: ['Brussel', 'Elsene', 'Schaarbeek', 'Anderlecht'] },
  // Deutschland: 16 Länder.
  { country: 'DE', code: 'BW', name: 'Baden-Württemberg', lat: 48.54, lon: 9.04, weight: 111, cities: ['Stuttgart', 'Karlsruhe', 'Mannheim', 'Freiburg im Breisgau', 'Heidelberg', 'Ulm'] },
  { country: 'DE', code: 'BY', name: 'Bayern', lat: 48.95, lon: 11.4, weight: 131, cities: ['München', 'Nürnberg', 'Augsburg', 'Regensburg', 'Würzburg', 'Ingolstadt'] },
  { country: 'DE', code: 'BE', name: 'Berlin', lat: 52.52, lon: 13.4, weight: 37, cities: ['Berlin'] },
  { country: 'DE', code: 'BB', name: 'Brandenburg', lat: 52.13, lon: 13.22, weight: 25, cities: ['Potsdam', 'Cottbus', 'Brandenburg an der Havel', 'Frankfurt (Oder)'] },
  { country: 'DE', code: 'HB', name: 'Bremen', lat: 53.08, lon: 8.8, weight: 7, cities: ['Bremen', 'Bremerhaven'] },
  { country: 'DE', code: 'HH', name: 'Hamburg', lat: 53.55, lon: 10.0, weight: 18.5, cities: ['Hamburg'] },
  { country: 'DE', code: 'HE', name: 'Hessen', lat: 50.61, lon: 9.03, weight: 63, cities: ['Frankfurt am Main', 'Wiesbaden', 'Kassel', 'Darmstadt', 'Offenbach am Main'] },
  { country: 'DE', code: 'MV', name: 'Mecklenburg-Vorpommern', lat: 53.61, lon: 12.43, weight: 16, cities: ['Rostock', 'Schwerin', 'Neubrandenburg', 'Stralsund', 'Greifswald'] },
  { country: 'DE', code: 'NI', name: 'Niedersachsen', lat: 52.64, lon: 9.85, weight: 80, cities: ['Hannover', 'Braunschweig', 'Oldenburg', 'Osnabrück', 'Göttingen', 'Wolfsburg'] },
  { country: 'DE', code: 'NW', name: 'Nordrhein-Westfalen', lat: 51.43, lon: 7.66, weight: 179, cities: ['Köln', 'Düsseldorf', 'Dortmund', 'Essen', 'Duisburg', 'Bochum', 'Münster', 'Bielefeld'] },
  { country: 'DE', code: 'RP', name: 'Rheinland-Pfalz', lat: 49.91, lon: 7.45, weight: 41, cities: ['Mainz', 'Ludwigshafen am Rhein', 'Koblenz', 'Trier', 'Kaiserslautern'] },
  { country: 'DE', code: 'SL', name: 'Saarland', lat: 49.38, lon: 6.95, weight: 10, cities: ['Saarbrücken', 'Neunkirchen', 'Homburg'] },
  { country: 'DE', code: 'SN', name: 'Sachsen', lat: 51.1, lon: 13.2, weight: 41, cities: ['Dresden', 'Leipzig', 'Chemnitz', 'Zwickau'] },
  { country: 'DE', code: 'ST', name: 'Sachsen-Anhalt', lat: 51.95, lon: 11.69, weight: 22, cities: ['Magdeburg', 'Halle (Saale)', 'Dessau-Roßlau'] },
  { country: 'DE', code: 'SH', name: 'Schleswig-Holstein', lat: 54.22, lon: 9.7, weight: 29, cities: ['Kiel', 'Lübeck', 'Flensburg', 'Neumünster'] },
  { country: 'DE', code: 'TH', name: 'Thüringen', lat: 50.9, lon: 11.03, weight: 21, cities: ['Erfurt', 'Jena', 'Gera', 'Weimar'] },
  // Österreich: 9 Bundesländer (the usual abbreviations).
  { country: 'AT', code: 'BGLD', name: 'Burgenland', lat: 47.5, lon: 16.42, weight: 3, cities: ['Eisenstadt', 'Neusiedl am See', 'Oberwart'] },
  { country: 'AT', code: 'KTN', name: 'Kärnten', lat: 46.72, lon: 14.18, weight: 5.6, cities: ['Klagenfurt', 'Villach', 'Wolfsberg', 'Spittal an der Drau'] },
  { country: 'AT', code: 'NOE', name: 'Niederösterreich', lat: 48.11, lon: 15.8, weight: 17, cities: ['St. Pölten', 'Wiener Neustadt', 'Krems an der Donau', 'Baden'] },
  { country: 'AT', code: 'OOE', name: 'Oberösterreich', lat: 48.03, lon: 13.97, weight: 15, cities: ['Linz', 'Wels', 'Steyr', 'Braunau am Inn'] },
  { country: 'AT', code: 'SBG', name: 'Salzburg', lat: 47.41, lon: 13.22, weight: 5.6, cities: ['Salzburg', 'Hallein', 'Saalfelden', 'Bischofshofen'] },
  { country: 'AT', code: 'STMK', name: 'Steiermark', lat: 47.36, lon: 15.0, weight: 12.5, cities: ['Graz', 'Leoben', 'Kapfenberg', 'Bruck an der Mur'] },
  { country: 'AT', code: 'T', name: 'Tirol', lat: 47.25, lon: 11.6, weight: 7.6, cities: ['Innsbruck', 'Kufstein', 'Schwaz', 'Lienz'] },
  { country: 'AT', code: 'VBG', name: 'Vorarlberg', lat: 47.24, lon: 9.89, weight: 4, cities: ['Bregenz', 'Dornbirn', 'Feldkirch', 'Bludenz'] },
  { country: 'AT', code: 'W', name: 'Wien', lat: 48.21, lon: 16.37, weight: 19, cities: ['Wien'] },
  // Schweiz: 14 Kantone (ISO 3166-2:CH codes, German names).
  { country: 'CH', code: 'ZH', name: 'Zürich', lat: 47.41, lon: 8.65, weight: 15.5, cities: ['Zürich', 'Winterthur', 'Uster'] },
  { country: 'CH', code: 'BE', name: 'Bern', lat: 46.82, lon: 7.62, weight: 10.4, cities: ['Bern', 'Biel/Bienne', 'Thun'] },
  { country: 'CH', code: 'LU', name: 'Luzern', lat: 47.07, lon: 8.11, weight: 4.2, cities: ['Luzern', 'Emmen', 'Kriens'] },
  { country: 'CH', code: 'AG', name: 'Aargau', lat: 47.41, lon: 8.15, weight: 7, cities: ['Aarau', 'Baden', 'Wettingen'] },
  { country: 'CH', code: 'SG', name: 'St. Gallen', lat: 47.22, lon: 9.29, weight: 5.1, cities: ['St. Gallen', 'Rapperswil-Jona', 'Wil'] },
  { country: 'CH', code: 'BS', name: 'Basel-Stadt', lat: 47.56, lon: 7.6, weight: 2, cities: ['Basel', 'Riehen'] },
  { country: 'CH', code: 'BL', name: 'Basel-Landschaft', lat: 47.45, lon: 7.7, weight: 2.9, cities: ['Liestal', 'Allschwil', 'Reinach'] },
  { country: 'CH', code: 'TG', name: 'Thurgau', lat: 47.57, lon: 9.1, weight: 2.8, cities: ['Frauenfeld', 'Kreuzlingen', 'Arbon'] },
  { country: 'CH', code: 'SO', name: 'Solothurn', lat: 47.3, lon: 7.64, weight: 2.8, cities: ['Solothurn', 'Olten', 'Grenchen'] },
  { country: 'CH', code: 'GR', name: 'Graubünden', lat: 46.66, lon: 9.63, weight: 2, cities: ['Chur', 'Davos', 'St. Moritz'] },
  { country: 'CH', code: 'ZG', name: 'Zug', lat: 47.16, lon: 8.54, weight: 1.3, cities: ['Zug', 'Baar', 'Cham'] },
  { country: 'CH', code: 'VD', name: 'Waadt', lat: 46.56, lon: 6.56, weight: 8.1, cities: ['Lausanne', 'Montreux', 'Yverdon-les-Bains'] },
  { country: 'CH', code: 'GE', name: 'Genf', lat: 46.22, lon: 6.12, weight: 5, cities: ['Genf', 'Carouge', 'Vernier'] },
  { country: 'CH', code: 'TI', name: 'Tessin', lat: 46.3, lon: 8.8, weight: 3.5, cities: ['Lugano', 'Bellinzona', 'Locarno'] },
];

/** First names per language group and gender (Dutch/Flemish and German-speaking). */
export const FIRST_NAMES: Record<NameGroup, { female: readonly string[]; male: readonly string[] }> = {
  nl: {
    female: [
      'Anna',
      'Anouk',
      'Annemarie',
      'Britt',
      'Chantal',
      'Charlotte',
      'Daniëlle',
      'Elise',
      'Els',
      'Emma',
      'Esther',
      'Eva',
      'Femke',
      'Fleur',
      'Floor',
      'Hanneke',
      'Ilse',
      'Inge',
      'Ingrid',
      'Iris',
      'Jasmijn',
      'Joyce',
      'Julia',
      'Karin',
      'Kim',
      'Laura',
      'Lieke',
      'Linda',
      'Lisa',
      'Lotte',
      'Manon',
      'Marieke',
      'Marloes',
      'Maud',
      'Mirjam',
      'Monique',
      'Naomi',
      'Nathalie',
      'Nina',
      'Noa',
      'Petra',
      'Romy',
      'Roos',
      'Sandra',
      'Saskia',
      'Sophie',
      'Wendy',
      'Yvonne',
      'Lindsey',
      'Evelien',
    ],
    male: [
      'Arjen',
      'Bas',
      'Bram',
      'Daan',
      'Dennis',
      'Erik',
      'Frank',
      'Gijs',
      'Hans',
      'Hugo',
      'Jan',
      'Jasper',
      'Jelle',
      'Jeroen',
      'Jesse',
      'Joost',
      'Kees',
      'Koen',
      'Lars',
      'Lucas',
      'Luuk',
      'Maarten',
      'Marco',
      'Mark',
      'Martijn',
      'Michiel',
      'Milan',
      'Niels',
      'Peter',
      'Pieter',
      'Richard',
      'Rick',
      'Rob',
      'Robin',
      'Ruben',
      'Sander',
      'Sem',
      'Stijn',
      'Sven',
      'Thijs',
      'Thomas',
      'Ties',
      'Tim',
      'Tom',
      'Vincent',
      'Wim',
      'Wouter',
      'Dirk',
      'Joris',
      'Wout',
    ],
  },
  de: {
    female: [
      'Andrea',
      'Angelika',
      'Anja',
      'Anke',
      'Barbara',
      'Beate',
      'Bettina',
      'Birgit',
      'Christine',
      'Claudia',
      'Cornelia',
      'Dagmar',
      'Daniela',
      'Doris',
      'Elke',
      'Gabriele',
      'Heike',
      'Ines',
      'Iris',
      'Jana',
      'Julia',
      'Jutta',
      'Karin',
      'Katja',
      'Katrin',
      'Kerstin',
      'Kirsten',
      'Manuela',
      'Marion',
      'Martina',
      'Melanie',
      'Monika',
      'Nadine',
      'Nicole',
      'Petra',
      'Regina',
      'Renate',
      'Sabine',
      'Sandra',
      'Silke',
      'Simone',
      'Sonja',
      'Stefanie',
      'Susanne',
      'Tanja',
      'Ulrike',
      'Ute',
      'Yvonne',
      'Claudine',
      'Brigitte',
    ],
    male: [
      'Alexander',
      'Andreas',
      'Axel',
      'Bernd',
      'Björn',
      'Carsten',
      'Christian',
      'Daniel',
      'Dieter',
      'Dirk',
      'Florian',
      'Frank',
      'Harald',
      'Heiko',
      'Holger',
      'Jan',
      'Jens',
      'Jörg',
      'Jürgen',
      'Kai',
      'Klaus',
      'Lukas',
      'Manfred',
      'Marco',
      'Markus',
      'Martin',
      'Matthias',
      'Michael',
      'Norbert',
      'Oliver',
      'Peter',
      'Rainer',
      'Ralf',
      'Sebastian',
      'Stefan',
      'Sven',
      'Thomas',
      'Tobias',
      'Torsten',
      'Uwe',
      'Volker',
      'Wolfgang',
      'Felix',
      'Hans',
      'Reto',
      'Urs',
      'Lorenz',
      'Georg',
      'Werner',
      'Gerhard',
    ],
  },
};

/** What a profile text is about; the fragments below fill in these facts. */
export interface AboutFacts {
  name: string;
  age: number;
  female: boolean;
  city: string;
  /** Zero to two hobby phrases taken from the profile's interests. */
  hobbies: string[];
}

export type Fragment = (facts: AboutFacts) => string;

export interface AboutFragments {
  openers: readonly Fragment[];
  /** One or two sentences per signup reason (SIGNUP_REASONS keys). */
  reasons: Record<(typeof SIGNUP_REASONS)[number], readonly string[]>;
  /** Used when the profile has at least one hobby phrase. */
  hobbies: readonly Fragment[];
  closers: readonly string[];
  /** Phrases for the interests that read naturally in a hobby sentence. */
  hobbyPhrases: Partial<Record<Interest, string>>;
}

/** Sentence fragments the profile texts ("about") are assembled from, in the sites' main languages. */
export const ABOUT_FRAGMENTS: Record<NameGroup, AboutFragments> = {
  nl: {
    openers: [
      (f) => `Hoi, ik ben ${f.name} uit ${f.city}.`,
      (f) => `Spontane ${f.female ? 'vrouw' : 'man'} van ${f.age} die van het leven geniet.`,
      (f) => `${f.age} jaar, nuchter en altijd in voor een goed gesprek.`,
      (f) => `Woon in de buurt van ${f.city} en hou van gezelligheid.`,
      () => 'Eerlijk, vrolijk en een tikkeltje ondeugend.',
      () => 'Na een drukke werkweek zoek ik graag wat afwisseling.',
      (f) => `Ik ben ${f.name}, ${f.age}, en ik lach graag.`,
    ],
    reasons: {
      relationship: ['Ik hoop hier iemand te vinden met wie het echt klikt.', 'Op zoek naar iets moois dat langer duurt dan één avond.'],
      friendship: ['Nieuwe mensen leren kennen vind ik altijd leuk.', 'Gewoon vriendschap, en wie weet wat er nog meer komt.'],
      adventure: ['Ik zoek een beetje spanning naast het dagelijkse leven.', 'Zin in iets nieuws en spannends.'],
      chat: ['Een leuk gesprek is voor mij al een goed begin.', 'Ik chat graag, vooral in de avonduren.'],
      one_night_stand: ['Niets serieus, gewoon samen een leuke avond.', 'Geen verplichtingen, wel plezier.'],
    },
    hobbies: [
      (f) => (f.hobbies.length > 1 ? `Ik hou van ${f.hobbies[0]} en ${f.hobbies[1]}.` : `Ik hou van ${f.hobbies[0]}.`),
      (f) => `Waar ik blij van word: ${f.hobbies.join(' en ')}.`,
      (f) => `Vaste prik in mijn week: ${f.hobbies[0]}.`,
    ],
    closers: ['Stuur gerust een berichtje!', 'Durf jij de eerste stap te zetten?', 'Ben benieuwd naar je berichtje.', 'Zeg gerust hallo.'],
    hobbyPhrases: {
      adventure: 'nieuwe avonturen',
      animals: 'dieren',
      art: 'kunst',
      astrology: 'astrologie',
      bbq: 'barbecueën met vrienden',
      beach: 'het strand',
      beer: 'speciaalbier',
      biking: 'fietsen',
      coffee: 'een goede kop koffie',
      cooking: 'koken',
      dancing: 'dansen',
      fashion: 'mode',
      foodie: 'lekker uit eten gaan',
      gardening: 'tuinieren',
      gym: 'de sportschool',
      hiking: 'wandelen',
      movies: 'films',
      music: 'muziek',
      outdoors: 'de natuur',
      party: 'uitgaan',
      photography: 'fotografie',
      reading: 'een goed boek',
      shopping: 'shoppen',
      sports: 'sport',
      sushi: 'sushi',
      tea: 'thee',
      theater: 'theater',
      travelling: 'reizen',
      wine: 'een goed glas wijn',
      massages: 'massages',
      hugging: 'knuffelen',
    },
  },
  de: {
    openers: [
      (f) => `Hallo, ich bin ${f.name} aus ${f.city}.`,
      (f) => (f.female ? `Spontane Frau, ${f.age}, die das Leben genießt.` : `Spontaner Mann, ${f.age}, der das Leben genießt.`),
      (f) => `${f.age} Jahre jung, ehrlich und immer für ein gutes Gespräch zu haben.`,
      (f) => `Ich wohne in der Nähe von ${f.city} und mag es gemütlich.`,
      () => 'Ehrlich, fröhlich und ein bisschen frech.',
      () => 'Nach einer langen Arbeitswoche suche ich gern etwas Abwechslung.',
      (f) => `Ich bin ${f.name}, ${f.age}, und lache gern.`,
    ],
    reasons: {
      relationship: ['Ich hoffe, hier jemanden zu finden, mit dem es wirklich passt.', 'Auf der Suche nach etwas Schönem, das länger hält als einen Abend.'],
      friendship: ['Neue Leute kennenzulernen macht mir immer Spaß.', 'Einfach Freundschaft, und wer weiß, was daraus wird.'],
      adventure: ['Ich suche ein wenig Prickeln neben dem Alltag.', 'Lust auf etwas Neues und Aufregendes.'],
      chat: ['Ein nettes Gespräch ist für mich ein guter Anfang.', 'Ich chatte gern, vor allem abends.'],
      one_night_stand: ['Nichts Ernstes, einfach ein schöner Abend zu zweit.', 'Keine Verpflichtungen, nur Spaß.'],
    },
    hobbies: [
      (f) => (f.hobbies.length > 1 ? `Ich mag ${f.hobbies[0]} und ${f.hobbies[1]}.` : `Ich mag ${f.hobbies[0]}.`),
      (f) => `Was mich glücklich macht: ${f.hobbies.join(' und ')}.`,
      (f) => `In meiner Freizeit dreht sich viel um ${f.hobbies[0]}.`,
    ],
    closers: ['Schreib mir einfach!', 'Traust du dich, den ersten Schritt zu machen?', 'Ich freue mich auf deine Nachricht.', 'Sag ruhig Hallo.'],
    hobbyPhrases: {
      adventure: 'neue Abenteuer',
      animals: 'Tiere',
      art: 'Kunst',
      astrology: 'Astrologie',
      bbq: 'Grillabende mit Freunden',
      beach: 'den Strand',
      beer: 'ein kühles Bier',
      biking: 'Radfahren',
      coffee: 'einen guten Kaffee',
      cooking: 'Kochen',
      dancing: 'Tanzen',
      fashion: 'Mode',
      foodie: 'gutes Essen',
      gardening: 'meinen Garten',
      gym: 'das Fitnessstudio',
      hiking: 'Wandern',
      movies: 'Filme',
      music: 'Musik',
      outdoors: 'die Natur',
      party: 'Ausgehen',
      photography: 'Fotografie',
      reading: 'ein gutes Buch',
      shopping: 'Shoppen',
      sports: 'Sport',
      sushi: 'Sushi',
      tea: 'Tee',
      theater: 'Theater',
      travelling: 'Reisen',
      wine: 'ein gutes Glas Wein',
      massages: 'Massagen',
      hugging: 'Kuscheln',
    },
  },
};

/** Rough RGB tones per hair colour for the abstract portraits. */
export const HAIR_TONES: Record<(typeof HAIR_COLOURS)[number], readonly [number, number, number]> = {
  blond: [222, 190, 120],
  brown: [110, 72, 45],
  black: [40, 34, 34],
  red: [170, 78, 40],
  grey: [165, 165, 170],
  other: [120, 80, 150],
};
