/**
 * Places (MEM-03, MEM-07, MEM-08): countries by their names, the regions of the site's countries, and a
 * geocode that maps a position to the nearest region by the regions' centroids the project ships
 * (`regions.lat_e4/lon_e4`, from src/demo/seed-data.ts). No network: a position is only ever compared with
 * those centroids.
 */
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { regions } from '../../db/schema';

export interface Region {
  id: number;
  country: string;
  code: string;
  name: string;
}

/** One Intl.DisplayNames per language for the process (a page names countries on every request). */
const countryNames = new Map<string, Intl.DisplayNames>();

/** A country's name in `lang` ("Nederland" for NL in Dutch); its code when there is no name for it. */
export function countryName(code: string, lang: string): string {
  let names = countryNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang], { type: 'region' });
    countryNames.set(lang, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code; // not a region code at all (Intl throws)
  }
}

const directories = new WeakMap<Db, Promise<Region[]>>();

/**
 * Every region, by country then name. Regions are reference data the project ships (written by the seed
 * before the server listens, never by a request), so they are read once per database handle rather than
 * on every search page; an empty answer is not kept (a database not seeded yet).
 */
export function allRegions(db: Db): Promise<Region[]> {
  let directory = directories.get(db);
  if (!directory) {
    // `.then` makes it a promise of the rows: a Drizzle query builder is only thenable, and awaiting
    // the builder itself would send the query again on every await.
    directory = db
      .select({ id: regions.id, country: regions.country, code: regions.code, name: regions.name })
      .from(regions)
      .orderBy(asc(regions.country), asc(regions.name))
      .then((rows) => rows);
    directories.set(db, directory);
    directory.then(
      (rows) => rows.length === 0 && directories.delete(db),
      () => directories.delete(db),
    );
  }
  return directory;
}

/** Regions of `countries` (upper-case ISO codes), by country then name. */
export async function listRegions(db: Db, countries: readonly string[]): Promise<Region[]> {
  if (countries.length === 0) return [];
  return (await allRegions(db)).filter((region) => countries.includes(region.country));
}

/** The region with this id, or undefined. */
export async function findRegion(db: Db, id: number): Promise<Region | undefined> {
  return (await allRegions(db)).find((region) => region.id === id);
}

/** Whether region `id` exists and lies in `country` (a profile's region must be in its own country). */
export async function regionInCountry(db: Db, id: number, country: string): Promise<boolean> {
  return (await findRegion(db, id))?.country === country;
}

/** A position farther than this from every centroid is "not near any of our regions". */
export const GEOCODE_MAX_KM = 250;

export interface Geocode {
  country: string | null;
  region: Region | null;
  /** Distance to the region's centroid, whole kilometres (null when none is near). */
  distanceKm: number | null;
}

export class InvalidCoordinates extends Error {
  constructor() {
    super('invalid coordinates');
    this.name = 'InvalidCoordinates';
  }
}

/** Reads `lat` and `lon` as finite decimal degrees in range; throws {@link InvalidCoordinates}. */
export function parseCoordinates(lat: string | null, lon: string | null): { lat: number; lon: number } {
  const re = /^-?\d{1,3}(\.\d{1,12})?$/;
  if (lat === null || lon === null || !re.test(lat.trim()) || !re.test(lon.trim())) throw new InvalidCoordinates();
  const la = Number(lat);
  const lo = Number(lon);
  if (Math.abs(la) > 90 || Math.abs(lo) > 180) throw new InvalidCoordinates();
  return { lat: la, lon: lo };
}

/** Great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The nearest region of `countries` to the position, if one lies within {@link GEOCODE_MAX_KM}. */
export async function geocode(db: Db, position: { lat: number; lon: number }, countries: readonly string[]): Promise<Geocode> {
  if (countries.length === 0) return { country: null, region: null, distanceKm: null };
  const rows = await db
    .select({ id: regions.id, country: regions.country, code: regions.code, name: regions.name, lat: regions.lat, lon: regions.lon })
    .from(regions)
    .where(inArray(regions.country, [...countries]));
  let best: { row: (typeof rows)[number]; km: number } | null = null;
  for (const row of rows) {
    const km = distanceKm(position, { lat: row.lat / 1e4, lon: row.lon / 1e4 });
    if (!best || km < best.km) best = { row, km };
  }
  if (!best || best.km > GEOCODE_MAX_KM) return { country: null, region: null, distanceKm: null };
  const { id, country, code, name } = best.row;
  return { country, region: { id, country, code, name }, distanceKm: Math.round(best.km) };
}
