/**
 * The gif library the project ships (CHT-07): small animated WebP images drawn locally from SVG frames
 * by scripts/generate-gifs.ts into public/gifs/, and their search words in all eleven languages. The
 * default `GifProvider` searches this list; nothing here ever touches the network
 * (docs/decisions/036-gif-provider-and-shipped-media.md).
 */
import type { Language } from '../../shared/languages';

/** What the generator draws; each motif has its own animation in scripts/generate-gifs.ts. */
export type GifMotif = 'heart' | 'wave' | 'wink' | 'flower' | 'champagne' | 'kiss' | 'laugh' | 'thumbs' | 'fire' | 'coffee' | 'sun' | 'stars';

export interface LocalGif {
  id: string;
  motif: GifMotif;
  /** English title (alt text fallback); the picker shows the translated motif word. */
  title: string;
  /** Background and accent colours of this variant. */
  background: string;
  accent: string;
}

/** Side of every shipped gif, in pixels. */
export const LOCAL_GIF_SIZE = 160;

/** Search words per motif and language (lower case; matching ignores accents and case). */
export const MOTIF_KEYWORDS: Record<GifMotif, Record<Language, string[]>> = {
  heart: {
    nl: ['hart', 'hartje', 'liefde', 'verliefd', 'love'],
    en: ['heart', 'love', 'in love', 'crush'],
    de: ['herz', 'liebe', 'verliebt'],
    it: ['cuore', 'amore', 'innamorato', 'innamorata'],
    fr: ['cœur', 'amour', 'amoureux', 'amoureuse'],
    es: ['corazón', 'amor', 'enamorado', 'enamorada'],
    pl: ['serce', 'serduszko', 'miłość', 'zakochany', 'zakochana'],
    da: ['hjerte', 'kærlighed', 'forelsket'],
    fi: ['sydän', 'rakkaus', 'rakastunut'],
    nb: ['hjerte', 'kjærlighet', 'forelsket'],
    sv: ['hjärta', 'kärlek', 'kär', 'förälskad'],
  },
  wave: {
    nl: ['hallo', 'hoi', 'zwaaien', 'hand', 'doei'],
    en: ['hello', 'hi', 'wave', 'waving', 'hand', 'bye'],
    de: ['hallo', 'hi', 'winken', 'hand', 'tschüss'],
    it: ['ciao', 'salve', 'saluto', 'mano'],
    fr: ['bonjour', 'salut', 'coucou', 'main'],
    es: ['hola', 'saludo', 'mano', 'adiós'],
    pl: ['cześć', 'hej', 'machać', 'ręka', 'pa'],
    da: ['hej', 'hejsa', 'vinke', 'hånd', 'farvel'],
    fi: ['hei', 'moi', 'heiluttaa', 'käsi', 'heippa'],
    nb: ['hei', 'hallo', 'vinke', 'hånd', 'ha det'],
    sv: ['hej', 'hallå', 'vinka', 'hand', 'hej då'],
  },
  wink: {
    nl: ['knipoog', 'knipogen', 'flirt', 'flirten', 'smiley'],
    en: ['wink', 'flirt', 'smiley', 'cheeky'],
    de: ['zwinkern', 'augenzwinkern', 'flirt', 'flirten', 'smiley'],
    it: ['occhiolino', 'flirt', 'flirtare', 'faccina'],
    fr: ['clin d’œil', 'clin', 'drague', 'flirt', 'smiley'],
    es: ['guiño', 'guiñar', 'coqueteo', 'ligar', 'carita'],
    pl: ['mrugnięcie', 'oczko', 'flirt', 'buźka'],
    da: ['blink', 'blinke', 'flirt', 'flirte', 'smiley'],
    fi: ['silmänisku', 'iskeä silmää', 'flirtti', 'hymiö'],
    nb: ['blunk', 'blunke', 'flørt', 'flørte', 'smilefjes'],
    sv: ['blinka', 'blinkning', 'flirt', 'flörta', 'smiley'],
  },
  flower: {
    nl: ['bloem', 'bloemen', 'roos', 'lente'],
    en: ['flower', 'flowers', 'rose', 'spring'],
    de: ['blume', 'blumen', 'rose', 'frühling'],
    it: ['fiore', 'fiori', 'rosa', 'primavera'],
    fr: ['fleur', 'fleurs', 'rose', 'printemps'],
    es: ['flor', 'flores', 'rosa', 'primavera'],
    pl: ['kwiat', 'kwiaty', 'róża', 'wiosna'],
    da: ['blomst', 'blomster', 'rose', 'forår'],
    fi: ['kukka', 'kukat', 'ruusu', 'kevät'],
    nb: ['blomst', 'blomster', 'rose', 'vår'],
    sv: ['blomma', 'blommor', 'ros', 'vår'],
  },
  champagne: {
    nl: ['champagne', 'proost', 'feest', 'bubbels', 'gefeliciteerd'],
    en: ['champagne', 'cheers', 'party', 'celebrate', 'congratulations'],
    de: ['sekt', 'champagner', 'prost', 'feier', 'glückwunsch'],
    it: ['spumante', 'champagne', 'brindisi', 'cin cin', 'festa', 'auguri'],
    fr: ['champagne', 'santé', 'tchin', 'fête', 'félicitations'],
    es: ['champán', 'cava', 'salud', 'brindis', 'fiesta', 'felicidades'],
    pl: ['szampan', 'na zdrowie', 'toast', 'impreza', 'gratulacje'],
    da: ['champagne', 'skål', 'fest', 'tillykke'],
    fi: ['samppanja', 'kippis', 'juhla', 'onnittelut'],
    nb: ['champagne', 'skål', 'fest', 'gratulerer'],
    sv: ['champagne', 'skål', 'fest', 'grattis'],
  },
  kiss: {
    nl: ['kus', 'kusje', 'zoen', 'smak'],
    en: ['kiss', 'kisses', 'smooch', 'xoxo'],
    de: ['kuss', 'küsschen', 'bussi'],
    it: ['bacio', 'bacione', 'baci'],
    fr: ['bisou', 'bisous', 'baiser'],
    es: ['beso', 'besos', 'besito'],
    pl: ['buziak', 'całus', 'pocałunek'],
    da: ['kys', 'kysse', 'knus'],
    fi: ['pusu', 'suukko', 'pusut'],
    nb: ['kyss', 'klem', 'kysse'],
    sv: ['puss', 'kyss', 'pussar'],
  },
  laugh: {
    nl: ['lachen', 'haha', 'grappig', 'lol'],
    en: ['laugh', 'haha', 'funny', 'lol'],
    de: ['lachen', 'haha', 'lustig', 'lol'],
    it: ['ridere', 'ahah', 'divertente', 'lol'],
    fr: ['rire', 'mdr', 'drôle', 'haha'],
    es: ['reír', 'jaja', 'gracioso', 'risa'],
    pl: ['śmiech', 'haha', 'zabawne', 'hehe'],
    da: ['grine', 'haha', 'sjov', 'grin'],
    fi: ['nauru', 'haha', 'hauska', 'naurattaa'],
    nb: ['le', 'haha', 'morsom', 'latter'],
    sv: ['skratta', 'haha', 'rolig', 'skratt'],
  },
  thumbs: {
    nl: ['duim', 'duimpje', 'top', 'goed', 'oké'],
    en: ['thumbs up', 'thumb', 'ok', 'good', 'great', 'yes'],
    de: ['daumen hoch', 'daumen', 'super', 'gut', 'okay'],
    it: ['pollice', 'ok', 'bene', 'ottimo', 'sì'],
    fr: ['pouce', 'super', 'ok', 'génial', 'oui'],
    es: ['pulgar', 'vale', 'genial', 'bien', 'sí'],
    pl: ['kciuk', 'super', 'dobrze', 'okej', 'tak'],
    da: ['tommel op', 'tommel', 'godt', 'super', 'ja'],
    fi: ['peukku', 'peukalo', 'hyvä', 'selvä', 'kyllä'],
    nb: ['tommel opp', 'tommel', 'bra', 'supert', 'ja'],
    sv: ['tummen upp', 'tumme', 'bra', 'toppen', 'ja'],
  },
  fire: {
    nl: ['vuur', 'heet', 'hot', 'vlam'],
    en: ['fire', 'hot', 'flame', 'lit'],
    de: ['feuer', 'heiß', 'flamme'],
    it: ['fuoco', 'caldo', 'fiamma'],
    fr: ['feu', 'chaud', 'flamme', 'canon'],
    es: ['fuego', 'caliente', 'llama'],
    pl: ['ogień', 'gorąco', 'płomień'],
    da: ['ild', 'hot', 'flamme', 'varm'],
    fi: ['tuli', 'kuuma', 'liekki'],
    nb: ['ild', 'het', 'flamme', 'hot'],
    sv: ['eld', 'het', 'flamma', 'het'],
  },
  coffee: {
    nl: ['koffie', 'kopje', 'afspraak', 'goedemorgen'],
    en: ['coffee', 'cup', 'date', 'good morning'],
    de: ['kaffee', 'tasse', 'date', 'guten morgen'],
    it: ['caffè', 'tazza', 'appuntamento', 'buongiorno'],
    fr: ['café', 'tasse', 'rendez-vous', 'bonjour'],
    es: ['café', 'taza', 'cita', 'buenos días'],
    pl: ['kawa', 'filiżanka', 'randka', 'dzień dobry'],
    da: ['kaffe', 'kop', 'date', 'godmorgen'],
    fi: ['kahvi', 'kuppi', 'treffit', 'huomenta'],
    nb: ['kaffe', 'kopp', 'date', 'god morgen'],
    sv: ['kaffe', 'fika', 'kopp', 'dejt', 'god morgon'],
  },
  sun: {
    nl: ['zon', 'zonnig', 'zomer', 'goedemorgen'],
    en: ['sun', 'sunny', 'summer', 'good morning'],
    de: ['sonne', 'sonnig', 'sommer', 'guten morgen'],
    it: ['sole', 'soleggiato', 'estate', 'buongiorno'],
    fr: ['soleil', 'ensoleillé', 'été', 'bonjour'],
    es: ['sol', 'soleado', 'verano', 'buenos días'],
    pl: ['słońce', 'słonecznie', 'lato', 'dzień dobry'],
    da: ['sol', 'solrig', 'sommer', 'godmorgen'],
    fi: ['aurinko', 'aurinkoinen', 'kesä', 'huomenta'],
    nb: ['sol', 'solfylt', 'sommer', 'god morgen'],
    sv: ['sol', 'soligt', 'sommar', 'god morgon'],
  },
  stars: {
    nl: ['sterren', 'ster', 'welterusten', 'nacht', 'wow'],
    en: ['stars', 'star', 'good night', 'night', 'wow'],
    de: ['sterne', 'stern', 'gute nacht', 'nacht', 'wow'],
    it: ['stelle', 'stella', 'buonanotte', 'notte', 'wow'],
    fr: ['étoiles', 'étoile', 'bonne nuit', 'nuit', 'waouh'],
    es: ['estrellas', 'estrella', 'buenas noches', 'noche', 'guau'],
    pl: ['gwiazdy', 'gwiazda', 'dobranoc', 'noc', 'wow'],
    da: ['stjerner', 'stjerne', 'godnat', 'nat', 'wow'],
    fi: ['tähdet', 'tähti', 'hyvää yötä', 'yö', 'vau'],
    nb: ['stjerner', 'stjerne', 'god natt', 'natt', 'wow'],
    sv: ['stjärnor', 'stjärna', 'god natt', 'natt', 'wow'],
  },
};

/** Two variants of each motif, in the order an empty search shows them (a mix of motifs first). */
export const LOCAL_GIFS: readonly LocalGif[] = [
  { id: 'heart-red', motif: 'heart', title: 'Beating red heart', background: '#fde2e4', accent: '#e63946' },
  { id: 'wave-yellow', motif: 'wave', title: 'Waving hand', background: '#e0f2fe', accent: '#f4b400' },
  { id: 'wink-yellow', motif: 'wink', title: 'Winking face', background: '#fff7d6', accent: '#f9c80e' },
  { id: 'flower-rose', motif: 'flower', title: 'Red rose in bloom', background: '#e8f5e9', accent: '#d62839' },
  { id: 'champagne-gold', motif: 'champagne', title: 'Champagne toast', background: '#1d3557', accent: '#f1c453' },
  { id: 'kiss-red', motif: 'kiss', title: 'Blowing a kiss', background: '#ffe4ec', accent: '#c9184a' },
  { id: 'laugh-yellow', motif: 'laugh', title: 'Laughing face', background: '#e7f5ff', accent: '#f9c80e' },
  { id: 'thumbs-blue', motif: 'thumbs', title: 'Thumbs up', background: '#e3f2fd', accent: '#f4a261' },
  { id: 'fire-orange', motif: 'fire', title: 'Flickering fire', background: '#2b2d42', accent: '#ff7b00' },
  { id: 'coffee-brown', motif: 'coffee', title: 'Steaming coffee cup', background: '#f6efe6', accent: '#8d5524' },
  { id: 'sun-yellow', motif: 'sun', title: 'Shining sun', background: '#bde0fe', accent: '#ffb703' },
  { id: 'stars-night', motif: 'stars', title: 'Twinkling stars', background: '#14213d', accent: '#fca311' },
  { id: 'heart-pink', motif: 'heart', title: 'Beating pink heart', background: '#fff0f6', accent: '#f06595' },
  { id: 'wave-brown', motif: 'wave', title: 'Waving hello', background: '#fff3e0', accent: '#c68642' },
  { id: 'wink-pink', motif: 'wink', title: 'Winking smiley on pink', background: '#ffe3ef', accent: '#ffd43b' },
  { id: 'flower-tulip', motif: 'flower', title: 'Yellow flower in bloom', background: '#f1f8e9', accent: '#f7b801' },
  { id: 'champagne-rose', motif: 'champagne', title: 'Rosé bubbles', background: '#5a189a', accent: '#ffafcc' },
  { id: 'kiss-purple', motif: 'kiss', title: 'Kiss with hearts', background: '#f3e8ff', accent: '#9d4edd' },
  { id: 'laugh-green', motif: 'laugh', title: 'Laughing out loud', background: '#e9fbe5', accent: '#ffd60a' },
  { id: 'thumbs-green', motif: 'thumbs', title: 'Thumbs up, well done', background: '#e6fcf5', accent: '#e0ac69' },
  { id: 'fire-red', motif: 'fire', title: 'Hot flame', background: '#370617', accent: '#e85d04' },
  { id: 'coffee-mint', motif: 'coffee', title: 'Coffee for two', background: '#e6fffa', accent: '#6f4518' },
  { id: 'sun-orange', motif: 'sun', title: 'Sunny morning', background: '#ffe8cc', accent: '#fb8500' },
  { id: 'stars-purple', motif: 'stars', title: 'Shooting stars', background: '#240046', accent: '#e0aaff' },
];

export function localGifUrl(id: string): string {
  return `/gifs/${id}.webp`;
}
