/**
 * Gif search for the chat (CHT-07) behind one interface, `GifProvider`:
 * - `LocalGifProvider` (the default): the library the project ships in public/gifs/ (gif-library.ts),
 *   searched by its words in all eleven languages; no network, ever.
 * - `GiphyGifProvider`: GIPHY's search API, used when GIPHY_API_KEY is configured; its base URL is
 *   configurable so tests run it against a local fake.
 * See docs/decisions/036-gif-provider-and-shipped-media.md.
 */
import type { Config } from '../config';
import { GIF_OFFSET_MAX } from '../../shared/api/limits';
import type { Language } from '../../shared/languages';
import { LOCAL_GIF_SIZE, LOCAL_GIFS, localGifUrl, MOTIF_KEYWORDS, type LocalGif } from './gif-library';

export interface GifItem {
  id: string;
  title: string;
  url: string;
  previewUrl: string;
  width: number;
  height: number;
}

export interface GifPage {
  items: GifItem[];
  /** The offset of the next page, or null when this was the last. */
  next: number | null;
}

export interface GifSearchOptions {
  lang: Language;
  limit: number;
  offset: number;
}

export interface GifProvider {
  /** Which provider answers (for logs and the decision record). */
  readonly name: 'local' | 'giphy';
  /** Gifs matching `query`; an empty query gives a default selection. */
  search(query: string, opts: GifSearchOptions): Promise<GifPage>;
  /** One gif by its id (a message stores only the id), or null when unknown. */
  byId(id: string): Promise<GifItem | null>;
}

/** The provider could not answer (network, HTTP status, unreadable body); the API answers gif_search_unavailable. */
export class GifProviderError extends Error {
  constructor(
    message: string,
    public readonly status?: number,
  ) {
    super(message);
    this.name = 'GifProviderError';
  }
}

/** Gifs per page of the API. */
export const GIF_PAGE_SIZE = 12;

/** Lower case, accents removed, punctuation as spaces: 'Cœur!' and 'coeur' meet. */
export function normalizeWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function localItem(gif: LocalGif): GifItem {
  const url = localGifUrl(gif.id);
  return { id: gif.id, title: gif.title, url, previewUrl: url, width: LOCAL_GIF_SIZE, height: LOCAL_GIF_SIZE };
}

interface Indexed {
  gif: LocalGif;
  /** Words of the entry per language, normalised. */
  words: Record<string, string[]>;
  all: string[];
}

const INDEX: Indexed[] = LOCAL_GIFS.map((gif) => {
  const words: Record<string, string[]> = {};
  for (const [lang, list] of Object.entries(MOTIF_KEYWORDS[gif.motif])) {
    words[lang] = list.flatMap((w) => [normalizeWords(w), ...normalizeWords(w).split(' ')]);
  }
  const titleWords = normalizeWords(gif.title).split(' ');
  words.en = [...words.en!, ...titleWords];
  return { gif, words, all: [...new Set(Object.values(words).flat())] };
});

/** Every query word is the start of a word of the entry; 2 in the member's language, 1 in another, 0 none. */
function score(entry: Indexed, terms: string[], lang: Language): number {
  const matches = (words: string[]) => terms.every((term) => words.some((w) => w.startsWith(term)));
  if (matches(entry.words[lang] ?? [])) return 2;
  return matches(entry.all) ? 1 : 0;
}

function page<T>(list: T[], offset: number, limit: number): { slice: T[]; next: number | null } {
  const slice = list.slice(offset, offset + limit);
  return { slice, next: offset + limit < list.length ? offset + limit : null };
}

export class LocalGifProvider implements GifProvider {
  readonly name = 'local' as const;

  async search(query: string, { lang, limit, offset }: GifSearchOptions): Promise<GifPage> {
    const normal = normalizeWords(query);
    let found: Indexed[];
    if (normal === '') {
      found = INDEX;
    } else {
      const terms = normal.split(' ');
      const scored = INDEX.map((entry, order) => ({ entry, order, score: score(entry, terms, lang) })).filter((s) => s.score > 0);
      scored.sort((a, b) => b.score - a.score || a.order - b.order);
      found = scored.map((s) => s.entry);
    }
    const { slice, next } = page(found, offset, limit);
    return { items: slice.map((e) => localItem(e.gif)), next };
  }

  async byId(id: string): Promise<GifItem | null> {
    const gif = LOCAL_GIFS.find((g) => g.id === id);
    return gif ? localItem(gif) : null;
  }
}

// --- GIPHY ------------------------------------------------------------------------------------------

/** GIPHY's language codes differ from ours only for Norwegian. */
const GIPHY_LANG: Partial<Record<Language, string>> = { nb: 'no' };

export interface GiphyOptions {
  apiKey: string;
  /** https://api.giphy.com unless a test points it at a fake. */
  baseUrl: string;
  /** Content rating cap sent with every call (g, pg, pg-13, r). */
  rating: string;
  /** Per-call time limit. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

interface GiphyRendition {
  url?: string;
  webp?: string;
  width?: string | number;
  height?: string | number;
}
interface GiphyGif {
  id?: string;
  title?: string;
  images?: Record<string, GiphyRendition | undefined>;
}

function giphyItem(gif: GiphyGif | null): GifItem | null {
  if (!gif || typeof gif !== 'object') return null;
  const main = gif.images?.fixed_width ?? gif.images?.downsized ?? gif.images?.original;
  const preview = gif.images?.fixed_width_small ?? main;
  const url = main?.webp ?? main?.url;
  const width = Number(main?.width);
  const height = Number(main?.height);
  if (typeof gif.id !== 'string' || !url || !(width > 0) || !(height > 0)) return null;
  if (!isGiphyMedia(url)) return null;
  const previewUrl = preview?.webp ?? preview?.url ?? url;
  return { id: gif.id, title: typeof gif.title === 'string' ? gif.title : '', url, previewUrl: isGiphyMedia(previewUrl) ? previewUrl : url, width, height };
}

/** The image hosts GIPHY serves media from; the chat page allows them in its `img-src` (GIPHY_IMAGE_SOURCES). */
export const GIPHY_IMAGE_SOURCES = ['https://*.giphy.com'] as const;

/** Only https URLs on GIPHY's own hosts are handed to browsers (they are what the page's CSP allows). */
function isGiphyMedia(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && (url.hostname === 'giphy.com' || url.hostname.endsWith('.giphy.com'));
  } catch {
    return false;
  }
}

/**
 * The `img-src` sources a page showing chat gifs adds to its policy (docs/decisions/015 and 036):
 * none for the shipped library ('self'), GIPHY's media hosts when GIPHY is configured. In an .astro
 * page: `for (const src of gifImageSources(config)) Astro.csp.insertDirective(`img-src ${src}`)`.
 */
export function gifImageSources(config: Pick<Config, 'GIPHY_API_KEY'>): string[] {
  return config.GIPHY_API_KEY ? [...GIPHY_IMAGE_SOURCES] : [];
}

/** GIPHY ids are short letters and digits; anything else is never sent to it. */
const GIPHY_ID = /^[A-Za-z0-9]{1,64}$/;

export class GiphyGifProvider implements GifProvider {
  readonly name = 'giphy' as const;
  private readonly fetch: typeof globalThis.fetch;

  constructor(private readonly options: GiphyOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  private async call(path: string, params: Record<string, string>): Promise<unknown> {
    const url = new URL(path, this.options.baseUrl);
    url.search = new URLSearchParams({ api_key: this.options.apiKey, ...params }).toString();
    let response: Response;
    try {
      response = await this.fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000) });
    } catch (err) {
      throw new GifProviderError(`GIPHY could not be reached: ${(err as Error).name}`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new GifProviderError(`GIPHY answered HTTP ${response.status}`, response.status);
    }
    try {
      return await response.json();
    } catch {
      throw new GifProviderError('GIPHY answered something other than JSON', response.status);
    }
  }

  async search(query: string, { lang, limit, offset }: GifSearchOptions): Promise<GifPage> {
    const q = query.trim();
    const params: Record<string, string> = { limit: String(limit), offset: String(offset), rating: this.options.rating };
    const body = q === '' ? await this.call('/v1/gifs/trending', params) : await this.call('/v1/gifs/search', { ...params, q, lang: GIPHY_LANG[lang] ?? lang });
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new GifProviderError('GIPHY answered without a data list');
    const items = data.map((g) => giphyItem(g as GiphyGif | null)).filter((g): g is GifItem => g !== null);
    const pagination = (body as { pagination?: { total_count?: unknown; count?: unknown } }).pagination;
    const count = Number(pagination?.count ?? data.length);
    const total = Number(pagination?.total_count);
    const end = offset + count;
    const more = count > 0 && (Number.isFinite(total) ? end < total : data.length >= limit) && end <= GIF_OFFSET_MAX;
    return { items, next: more ? end : null };
  }

  async byId(id: string): Promise<GifItem | null> {
    if (!GIPHY_ID.test(id)) return null;
    const body = await this.call(`/v1/gifs/${id}`, {});
    const data = (body as { data?: unknown } | null)?.data;
    return data && typeof data === 'object' && !Array.isArray(data) ? giphyItem(data as GiphyGif) : null;
  }
}

const local = new LocalGifProvider();
const configured = new WeakMap<object, GifProvider>();

/** The provider for this configuration: GIPHY when GIPHY_API_KEY is set, else the shipped library. */
export function gifProvider(config: Pick<Config, 'GIPHY_API_KEY' | 'GIPHY_BASE_URL' | 'GIPHY_RATING'>): GifProvider {
  if (!config.GIPHY_API_KEY) return local;
  let provider = configured.get(config);
  if (!provider) {
    provider = new GiphyGifProvider({ apiKey: config.GIPHY_API_KEY, baseUrl: config.GIPHY_BASE_URL, rating: config.GIPHY_RATING });
    configured.set(config, provider);
  }
  return provider;
}
