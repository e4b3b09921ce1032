/**
 * Translations of the demo sites' own texts (the `sites.texts` column; docs/decisions/020-site-texts-per-language.md):
 * Flirtlokaal (Dutch) in the ten other languages it offers, Reife Kontakte (German) in English and Dutch.
 * The sites' own texts stay in their rows (seed-data.ts).
 */
import type { SiteTextTranslations } from '../shared/site-texts';

/** Flirtlokaal: own language nl; every other language of the site. */
export const FLIRTLOKAAL_TEXTS: SiteTextTranslations = {
  index_title: {
    en: 'Flirtlokaal – flirting and dating with singles from the Netherlands and Belgium',
    de: 'Flirtlokaal – Flirten und Daten mit Singles aus den Niederlanden und Belgien',
    it: 'Flirtlokaal – flirt e incontri con single dei Paesi Bassi e del Belgio',
    fr: 'Flirtlokaal – flirts et rencontres avec des célibataires des Pays-Bas et de Belgique',
    es: 'Flirtlokaal – ligar y tener citas con solteros de los Países Bajos y Bélgica',
    pl: 'Flirtlokaal – flirt i randki z singlami z Holandii i Belgii',
    da: 'Flirtlokaal – flirt og dating med singler fra Nederlandene og Belgien',
    fi: 'Flirtlokaal – flirttailua ja treffejä sinkkujen kanssa Alankomaista ja Belgiasta',
    nb: 'Flirtlokaal – flørting og dating med singler fra Nederland og Belgia',
    sv: 'Flirtlokaal – flirt och dejting med singlar från Nederländerna och Belgien',
  },
  description: {
    en: 'Meet spontaneous singles near you. Sign up for free, browse profiles straight away and flirt on Flirtlokaal.',
    de: 'Triff spontane Singles in deiner Nähe. Kostenlos anmelden, sofort Profile ansehen und auf Flirtlokaal flirten.',
    it: 'Incontra single spontanei vicino a te. Iscriviti gratis, guarda subito i profili e flirta su Flirtlokaal.',
    fr: 'Rencontrez des célibataires spontanés près de chez vous. Inscrivez-vous gratuitement, découvrez tout de suite les profils et flirtez sur Flirtlokaal.',
    es: 'Conoce a solteros espontáneos cerca de ti. Regístrate gratis, mira perfiles al instante y liga en Flirtlokaal.',
    pl: 'Poznaj spontanicznych singli w swojej okolicy. Zarejestruj się za darmo, od razu przeglądaj profile i flirtuj na Flirtlokaal.',
    da: 'Mød spontane singler i nærheden af dig. Tilmeld dig gratis, se profiler med det samme og flirt på Flirtlokaal.',
    fi: 'Tapaa spontaaneja sinkkuja läheltäsi. Rekisteröidy ilmaiseksi, selaa profiileja heti ja flirttaile Flirtlokaalissa.',
    nb: 'Møt spontane singler i nærheten av deg. Registrer deg gratis, se profiler med en gang og flørt på Flirtlokaal.',
    sv: 'Träffa spontana singlar nära dig. Registrera dig gratis, titta på profiler direkt och flirta på Flirtlokaal.',
  },
  fictional_warning: {
    en: 'Profiles with this icon are fictional profiles. They are run by Flirtlokaal staff; physical contact with these profiles is not possible.',
    de: 'Profile mit diesem Symbol sind fiktive Profile. Sie werden von Mitarbeitern von Flirtlokaal betreut; körperlicher Kontakt mit diesen Profilen ist nicht möglich.',
    it: 'I profili con questa icona sono profili fittizi. Sono gestiti dal personale di Flirtlokaal; il contatto fisico con questi profili non è possibile.',
    fr: 'Les profils portant cette icône sont des profils fictifs. Ils sont gérés par l’équipe de Flirtlokaal ; aucun contact physique n’est possible avec ces profils.',
    es: 'Los perfiles con este icono son perfiles ficticios. Los gestiona el personal de Flirtlokaal; no es posible el contacto físico con estos perfiles.',
    pl: 'Profile oznaczone tą ikoną są profilami fikcyjnymi. Prowadzą je pracownicy Flirtlokaal; kontakt fizyczny z tymi profilami nie jest możliwy.',
    da: 'Profiler med dette ikon er fiktive profiler. De drives af medarbejdere hos Flirtlokaal; fysisk kontakt med disse profiler er ikke mulig.',
    fi: 'Tällä kuvakkeella merkityt profiilit ovat kuvitteellisia. Niitä ylläpitävät Flirtlokaalin työntekijät; fyysinen kontakti näiden profiilien kanssa ei ole mahdollista.',
    nb: 'Profiler med dette ikonet er fiktive profiler. De drives av ansatte i Flirtlokaal; fysisk kontakt med disse profilene er ikke mulig.',
    sv: 'Profiler med den här ikonen är fiktiva profiler. De sköts av medarbetare på Flirtlokaal; fysisk kontakt med dessa profiler är inte möjlig.',
  },
  fictional_singular: {
    en: 'fictional profile',
    de: 'fiktives Profil',
    it: 'profilo fittizio',
    fr: 'profil fictif',
    es: 'perfil ficticio',
    pl: 'profil fikcyjny',
    da: 'fiktiv profil',
    fi: 'kuvitteellinen profiili',
    nb: 'fiktiv profil',
    sv: 'fiktiv profil',
  },
  fictional_plural: {
    en: 'fictional profiles',
    de: 'fiktive Profile',
    it: 'profili fittizi',
    fr: 'profils fictifs',
    es: 'perfiles ficticios',
    pl: 'profile fikcyjne',
    da: 'fiktive profiler',
    fi: 'kuvitteelliset profiilit',
    nb: 'fiktive profiler',
    sv: 'fiktiva profiler',
  },
};

/** Reife Kontakte: own language de; English and Dutch. */
export const REIFE_KONTAKTE_TEXTS: SiteTextTranslations = {
  index_title: {
    en: 'Reife Kontakte – flirts and dates with mature women',
    nl: 'Reife Kontakte – flirten en daten met rijpe vrouwen',
  },
  description: {
    en: 'Get to know mature women from Germany, Austria and Switzerland. Sign up for free and start flirting right away.',
    nl: 'Leer rijpe vrouwen uit Duitsland, Oostenrijk en Zwitserland kennen. Gratis aanmelden en meteen beginnen met flirten.',
  },
  fictional_warning: {
    en: 'Profiles with this icon are fictional profiles. They are run by Reife Kontakte staff; meeting these profiles in person is not possible.',
    nl: 'Profielen met dit icoon zijn fictieve profielen. Ze worden beheerd door medewerkers van Reife Kontakte; een persoonlijke ontmoeting met deze profielen is niet mogelijk.',
  },
  fictional_singular: { en: 'fictional profile', nl: 'fictief profiel' },
  fictional_plural: { en: 'fictional profiles', nl: 'fictieve profielen' },
};
