/**
 * The render cache (PERF-01, docs/decisions/021-render-cache-and-lazy-islands.md): a page rendered for
 * a visitor without a session is kept for a few seconds and sent as it is, with its compressed variants,
 * to the next visitors who would get the very same page — so a burst of paid-ad visitors on `/` or a
 * lander costs one render, not one each.
 *
 * The key holds everything an anonymous page is rendered from (src/middleware.ts):
 * - the Host header (the site, its texts, canonical and link origins) and the path with the whole query
 *   (pages echo it in links such as the language menu's `next`);
 * - the scheme the browser used and, behind a trusted proxy only, the CDN's country header — both
 *   derived exactly as the middleware does (`requestEdge`), so a client cannot plant a page rendered
 *   for a trusted request;
 * - the `lang` cookie as sent (the language, I18N-01), whether `entry_ok=1` (the entry warning, LAY-02)
 *   and whether a valid tracking record is present (signup open or closed, CLI-04; pages branch on its
 *   presence, never show its values).
 *
 * Never cached: requests with a session cookie (members, and stale sessions the middleware clears) or a
 * staff cookie, the back office (/admin) whoever asks,
 * requests carrying tracking parameters (they set the tracking cookie), anything but GET/HEAD, and
 * answers other than a complete 200 text/html without `no-store` whose only cookie is the language
 * cookie. A response is stored only if no invalidation happened while it was rendered.
 *
 * Invalidation through the event bus: `site.content_changed` drops the site's entries; `site.changed`
 * (settings, company, hosts — rare) drops every entry, since a host added to a site may have shown the
 * fallback site until then. Expired entries are served once more to concurrent
 * visitors while one request renders the fresh page (no render stampede at expiry).
 *
 * Memory: at most `maxEntries` entries and `maxBytes` bytes (bodies and compressed variants), least
 * recently used first out.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { EventBus } from '../server/realtime/bus';
import { appendVary, compressBuffer, compressBufferSync, MIN_COMPRESS_BYTES, negotiateEncoding, type ContentEncoding } from './compression';
import { requestEdge, type TrustedProxies } from '../server/config/proxy';

export interface RenderCacheOptions {
  /** How long a page is served from the cache; 0 turns the cache off. */
  ttlMs: number;
  maxEntries?: number;
  /** Bytes of bodies and compressed variants kept at most. */
  maxBytes?: number;
  /** The parsed TRUSTED_PROXIES (null: forwarded headers are not believed). */
  trustedProxies: TrustedProxies | null;
  /** The country header a trusted CDN sends (lower case). */
  countryHeader: string;
  /** What of a request makes its page differ: the app's cookies and parameters (./page-keys.ts). */
  keys: PageKeys;
  /** Milliseconds now (tests). */
  now?: () => number;
}

/**
 * What the cache must know of the app to key its pages, handed in so the cache knows no feature: the
 * cookies of a signed-in member or staff member (their pages are never shared), the language cookie (a
 * key, and the only cookie a shared page may set), the entry-warning and tracking cookies (keys), the
 * query parameters that carry tracking and the paths that are never shared.
 */
export interface PageKeys {
  privateCookies: readonly string[];
  languageCookie: string;
  /** Accepted when its value is '1'. */
  entryCookie: string;
  trackingCookie: string;
  /** Whether the tracking cookie's (decoded) value holds a tracking record. */
  hasTracking(value: string | undefined): boolean;
  trackingParams: readonly string[];
  privatePaths: RegExp;
}

/** What `locals` tells after rendering: whose page it was and of which site. */
export interface RenderedLocals {
  user?: unknown;
  site?: { settings: { id: number } };
}

interface Entry {
  key: string;
  siteId: number;
  expires: number;
  status: number;
  statusMessage: string;
  headers: Array<[string, string | number | string[]]>;
  body: Buffer;
  variants: Partial<Record<ContentEncoding, Buffer>>;
  /** The encodings whose best compression is under way. */
  upgrading: Set<ContentEncoding>;
  bytes: number;
  /** A request is rendering this page again (the entry is expired). */
  refreshing: boolean;
}

/** Headers that belong to one response, not to the page. */
const PER_RESPONSE_HEADERS = new Set(['x-request-id', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'x-cache']);

/** Bodies larger than this are not kept (a page is ~10–30 kB). */
const MAX_ENTRY_BYTES = 512 * 1024;

const CACHE_HEADER = 'x-cache';

/** The preference for stored bodies: compressed once, so brotli's smaller output is worth it. */
const STORED_PREFERENCE: readonly ContentEncoding[] = ['br', 'gzip'];

function cookieValues(header: string | undefined, names: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  if (!header) return found;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (names.includes(name) && !found.has(name)) found.set(name, part.slice(eq + 1).trim());
  }
  return found;
}

function decodeCookie(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export class RenderCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keys = new WeakMap<IncomingMessage, { key: string; generation: number }>();
  private bytes = 0;
  /** Bumped by every invalidation: a page rendered across one is not stored. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  readonly stats = { hits: 0, stale: 0, misses: 0, stores: 0 };

  /** The cookies a key reads, and the parameters that keep a page out of the cache. */
  private readonly keyCookies: readonly string[];
  private readonly trackingParam: RegExp;

  constructor(private readonly options: RenderCacheOptions) {
    const { keys } = options;
    this.keyCookies = [...keys.privateCookies, keys.languageCookie, keys.entryCookie, keys.trackingCookie];
    this.trackingParam = new RegExp(`[?&](?:${keys.trackingParams.join('|')})=`);
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get storedBytes(): number {
    return this.bytes;
  }

  /** Drops entries when the bus says a site's settings or content changed. Returns the unsubscribe. */
  listen(bus: EventBus): () => void {
    const offs = [
      // Settings include the site's hosts: a host added to a site may have shown another site until now.
      bus.subscribe('site.changed', () => this.clear()),
      bus.subscribe('site.content_changed', ({ siteId }) => this.dropSite(siteId)),
    ];
    return () => offs.forEach((off) => off());
  }

  /** Drops a site's pages. */
  dropSite(siteId: number): void {
    this.generation++;
    for (const entry of this.entries.values()) if (entry.siteId === siteId) this.remove(entry);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  /**
   * The cache key of a request, or null when its answer must not come from (nor go into) the cache.
   * Exported for tests through the instance.
   */
  keyOf(req: IncomingMessage): string | null {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const url = req.url ?? '/';
    const keys = this.options.keys;
    if (url.length > 2048 || (url.includes('?') && this.trackingParam.test(url))) return null;
    const cookies = cookieValues(req.headers.cookie, this.keyCookies);
    if (keys.privateCookies.some((name) => cookies.has(name)) || keys.privatePaths.test(url)) return null;
    const host = (req.headers.host ?? '').toLowerCase();
    const tlsSocket = Boolean((req.socket as Partial<TLSSocket>).encrypted);
    let secure = tlsSocket;
    let country = '';
    const proxies = this.options.trustedProxies;
    if (proxies) {
      const headers = new Headers();
      const forwardedFor = headerText(req.headers['x-forwarded-for']);
      const forwardedProto = headerText(req.headers['x-forwarded-proto']);
      if (forwardedFor) headers.set('x-forwarded-for', forwardedFor);
      if (forwardedProto) headers.set('x-forwarded-proto', forwardedProto);
      const edge = requestEdge(headers, req.socket.remoteAddress, tlsSocket, proxies);
      secure = edge.secure;
      if (edge.viaProxy) country = (headerText(req.headers[this.options.countryHeader]) ?? '').trim().toUpperCase();
    }
    const lang = cookies.get(keys.languageCookie) ?? '';
    const entry = cookies.get(keys.entryCookie) === '1' ? '1' : '0';
    const tracking = keys.hasTracking(decodeCookie(cookies.get(keys.trackingCookie))) ? '1' : '0';
    return `${host}\n${secure ? 's' : 'p'}\n${country}\n${lang}\n${entry}${tracking}\n${url}`;
  }

  /**
   * Answers `req` from the cache when it can (true: the response is sent). Otherwise remembers the key,
   * for `record`, and marks the response `x-cache: miss` when it may be stored.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.enabled) return false;
    const key = this.keyOf(req);
    if (key === null) return false;
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry) {
      if (entry.expires > now) {
        this.send(req, res, entry, 'hit');
        return true;
      }
      if (entry.expires + this.ttlMs <= now) this.remove(entry);
      else if (entry.refreshing || req.method !== 'GET') {
        // Expired a moment ago and one request is rendering it again: the others get it once more.
        this.send(req, res, entry, 'stale');
        return true;
      } else entry.refreshing = true;
    }
    this.stats.misses++;
    this.keys.set(req, { key, generation: this.generation });
    res.setHeader(CACHE_HEADER, 'miss');
    return false;
  }

  /**
   * Keeps what the handler writes into `res` and stores it once the response finished, when it may be
   * stored. Call after the compression layer wrapped `res`, so this sees the page as rendered.
   * `locals` is the object handed to Astro: after rendering it holds the site and the user.
   */
  record(req: IncomingMessage, res: ServerResponse, locals: object): void {
    const ticket = this.keys.get(req);
    if (!ticket || req.method !== 'GET') return;
    const chunks: Buffer[] = [];
    let size = 0;
    let snapshot: { status: number; statusMessage: string; headers: Entry['headers'] } | undefined;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_ENTRY_BYTES) return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      chunks.push(buffer);
      size += buffer.length;
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      // The headers as the page set them, before compression adds its own.
      snapshot = { status: this.statusCode, statusMessage: this.statusMessage, headers: Object.entries(this.getHeaders()) as Entry['headers'] };
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    res.once('finish', () => {
      const stored = snapshot && size <= MAX_ENTRY_BYTES && ticket.generation === this.generation && this.store(ticket.key, snapshot, Buffer.concat(chunks, size), locals as RenderedLocals);
      if (!stored) {
        // The page is no longer what was kept (or may not be kept): nobody gets the old one again.
        const old = this.entries.get(ticket.key);
        if (old?.refreshing) this.remove(old);
      }
    });
    res.once('close', () => {
      const old = this.entries.get(ticket.key);
      if (!res.writableFinished && old?.refreshing) old.refreshing = false;
    });
  }

  private store(key: string, snapshot: NonNullable<{ status: number; statusMessage: string; headers: Entry['headers'] }>, body: Buffer, locals: RenderedLocals): boolean {
    if (snapshot.status !== 200 || locals.user || !locals.site) return false;
    const headers: Entry['headers'] = [];
    for (const [name, value] of snapshot.headers) {
      const lower = name.toLowerCase();
      if (PER_RESPONSE_HEADERS.has(lower)) continue;
      if (lower === 'content-type' && !/^text\/html\b/i.test(String(value))) return false;
      if (lower === 'cache-control' && /no-store/i.test(String(value))) return false;
      if (lower === 'set-cookie') {
        const cookies = Array.isArray(value) ? value : [String(value)];
        if (!cookies.every((c) => c.startsWith(`${this.options.keys.languageCookie}=`))) return false;
      }
      headers.push([name, value]);
    }
    if (!headers.some(([name]) => name.toLowerCase() === 'content-type')) return false;
    const old = this.entries.get(key);
    if (old) this.remove(old);
    const entry: Entry = {
      key,
      siteId: locals.site.settings.id,
      expires: this.now() + this.ttlMs,
      status: snapshot.status,
      statusMessage: snapshot.statusMessage,
      headers,
      body,
      variants: {},
      upgrading: new Set(),
      bytes: body.length + key.length,
      refreshing: false,
    };
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    this.stats.stores++;
    this.evict();
    return true;
  }

  private send(req: IncomingMessage, res: ServerResponse, entry: Entry, state: 'hit' | 'stale'): void {
    if (state === 'hit') this.stats.hits++;
    else this.stats.stale++;
    // Most recently used last.
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    res.statusCode = entry.status;
    res.statusMessage = entry.statusMessage;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader(CACHE_HEADER, state);
    let body = entry.body;
    if (body.length >= MIN_COMPRESS_BYTES) {
      appendVary(res, 'Accept-Encoding');
      const encoding = negotiateEncoding(req.headers['accept-encoding'], STORED_PREFERENCE);
      if (encoding) {
        body = this.variant(entry, encoding);
        res.setHeader('content-encoding', encoding);
      }
    }
    res.setHeader('content-length', body.length);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  }

  /** The body in `encoding`: compressed quickly on first need, then replaced by the best compression. */
  private variant(entry: Entry, encoding: ContentEncoding): Buffer {
    const have = entry.variants[encoding];
    if (have) return have;
    const fast = compressBufferSync(entry.body, encoding);
    this.addVariant(entry, encoding, fast);
    entry.upgrading.add(encoding);
    compressBuffer(entry.body, encoding, 'best').then(
      (best) => {
        if (this.entries.get(entry.key) === entry && best.length < fast.length) this.addVariant(entry, encoding, best);
      },
      () => {},
    );
    return fast;
  }

  private addVariant(entry: Entry, encoding: ContentEncoding, body: Buffer): void {
    const old = entry.variants[encoding];
    entry.variants[encoding] = body;
    const delta = body.length - (old?.length ?? 0);
    entry.bytes += delta;
    this.bytes += delta;
    this.evict();
  }

  private remove(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.bytes -= entry.bytes;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || (this.bytes > this.maxBytes && this.entries.size > 0)) {
      this.remove(this.entries.values().next().value!);
    }
  }
}
