/** The 50 interests that have an icon (SPEC §2); profiles pick from these keys only (MEM-06). */
export const INTERESTS = [
  'adventure',
  'analsex',
  'animals',
  'art',
  'astrology',
  'bbq',
  'beach',
  'beer',
  'biking',
  'bondage',
  'coffee',
  'cooking',
  'dancing',
  'exchanging_pictures',
  'fashion',
  'foodie',
  'gardening',
  'gym',
  'hiking',
  'hugging',
  'kissing',
  'lingerie',
  'massages',
  'masturbating',
  'movies',
  'music',
  'one_night_stand',
  'oral_sex',
  'outdoors',
  'party',
  'photography',
  'politics',
  'public_sex',
  'reading',
  'relationship',
  'sadomasochism',
  'safe_sex',
  'sex',
  'sex_toys',
  'shopping',
  'sports',
  'sushi',
  'tattoos',
  'tea',
  'theater',
  'threesome',
  'travelling',
  'vegetarian',
  'videogames',
  'wine',
] as const;
export type Interest = (typeof INTERESTS)[number];

/** Profile attribute values (MEM-06); texts for each live in the i18n catalogues under `profile.*`. */
export const GENDERS = ['male', 'female'] as const;
export const SEXUALITIES = ['hetero', 'gay', 'lesbian', 'bi'] as const;
export const HAIR_COLOURS = ['blond', 'brown', 'black', 'red', 'grey', 'other'] as const;
export const EYE_COLOURS = ['blue', 'brown', 'green', 'grey', 'hazel'] as const;
export const BODY_TYPES = ['slim', 'athletic', 'average', 'curvy', 'full'] as const;
export const RELATIONSHIP_STATUSES = ['single', 'divorced', 'widowed', 'in_relationship', 'married'] as const;
export const TATTOOS = ['none', 'one', 'some', 'many'] as const;
export const SIGNUP_REASONS = ['relationship', 'friendship', 'adventure', 'chat', 'one_night_stand'] as const;
