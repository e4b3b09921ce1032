/**
 * The map lander's drawing (LND-01 maplanding): a simplified outline of a site's main country and its
 * regions as dots, projected to SVG coordinates. Drawn by us from rough border points (lon, lat), so the
 * page needs no map tiles and no other host.
 */
import type { RegionDot } from './content';

type LonLat = readonly [number, number];

/** Simplified borders, clockwise, roughly 0.1° accurate: enough to recognise the country. */
const OUTLINES: Record<string, readonly LonLat[]> = {
  NL: [
    [3.36, 51.37],
    [3.55, 51.59],
    [3.7, 51.72],
    [3.95, 51.82],
    [4.05, 51.98],
    [4.38, 52.18],
    [4.55, 52.45],
    [4.65, 52.75],
    [4.73, 52.96],
    [5.05, 52.95],
    [5.4, 53.08],
    [5.41, 53.17],
    [5.9, 53.38],
    [6.2, 53.41],
    [6.7, 53.46],
    [6.95, 53.33],
    [7.21, 53.24],
    [7.21, 53.0],
    [7.07, 52.85],
    [7.03, 52.63],
    [6.72, 52.63],
    [6.7, 52.48],
    [7.07, 52.4],
    [7.0, 52.23],
    [6.76, 52.12],
    [6.4, 51.85],
    [5.95, 51.8],
    [6.0, 51.57],
    [6.2, 51.52],
    [6.08, 51.17],
    [5.88, 51.05],
    [6.08, 50.92],
    [6.02, 50.75],
    [5.69, 50.75],
    [5.75, 51.0],
    [5.65, 51.19],
    [5.24, 51.26],
    [5.04, 51.48],
    [4.75, 51.5],
    [4.54, 51.48],
    [4.25, 51.37],
    [3.95, 51.21],
    [3.52, 51.25],
  ],
  BE: [
    [2.55, 51.09],
    [3.36, 51.37],
    [3.52, 51.25],
    [3.95, 51.21],
    [4.25, 51.37],
    [4.54, 51.48],
    [5.04, 51.48],
    [5.24, 51.26],
    [5.65, 51.19],
    [5.75, 51.0],
    [5.69, 50.75],
    [6.02, 50.75],
    [6.4, 50.33],
    [6.13, 50.13],
    [5.8, 49.55],
    [5.45, 49.5],
    [4.85, 49.8],
    [4.85, 50.15],
    [4.15, 49.97],
    [4.2, 50.25],
    [3.65, 50.45],
    [3.3, 50.52],
    [2.9, 50.7],
  ],
  DE: [
    [7.2, 53.25],
    [7.0, 53.55],
    [8.0, 53.72],
    [8.55, 53.55],
    [8.9, 53.87],
    [8.85, 54.05],
    [8.6, 54.5],
    [8.65, 54.91],
    [9.45, 54.83],
    [10.0, 54.5],
    [10.9, 54.35],
    [10.9, 53.95],
    [11.5, 54.05],
    [12.3, 54.35],
    [13.0, 54.45],
    [13.6, 54.6],
    [14.2, 53.95],
    [14.4, 53.3],
    [14.15, 52.85],
    [14.65, 52.55],
    [14.55, 52.05],
    [14.75, 51.55],
    [15.0, 51.1],
    [14.7, 50.85],
    [14.3, 51.05],
    [13.5, 50.7],
    [12.9, 50.45],
    [12.1, 50.3],
    [12.5, 49.95],
    [12.45, 49.7],
    [13.05, 49.3],
    [13.83, 48.77],
    [13.45, 48.55],
    [12.95, 48.2],
    [12.75, 47.67],
    [13.0, 47.47],
    [12.2, 47.6],
    [11.1, 47.4],
    [10.45, 47.55],
    [9.95, 47.55],
    [9.55, 47.55],
    [8.9, 47.65],
    [8.4, 47.6],
    [7.6, 47.58],
    [7.5, 47.7],
    [7.6, 48.15],
    [7.8, 48.6],
    [8.2, 48.97],
    [7.45, 49.18],
    [6.75, 49.2],
    [6.35, 49.45],
    [6.5, 49.8],
    [6.13, 50.13],
    [6.4, 50.33],
    [6.0, 50.75],
    [5.98, 51.05],
    [6.2, 51.4],
    [5.95, 51.8],
    [6.8, 51.95],
    [7.05, 52.25],
    [6.7, 52.48],
    [7.05, 52.63],
    [7.2, 53.0],
  ],
  AT: [
    [9.55, 47.5],
    [9.6, 47.05],
    [10.1, 46.85],
    [10.45, 46.95],
    [11.0, 46.77],
    [12.15, 47.0],
    [12.4, 46.7],
    [13.7, 46.52],
    [14.6, 46.43],
    [15.95, 46.7],
    [16.1, 46.85],
    [16.45, 47.4],
    [16.5, 47.7],
    [17.05, 48.0],
    [16.95, 48.6],
    [16.0, 48.75],
    [15.0, 49.0],
    [14.7, 48.6],
    [13.83, 48.77],
    [13.45, 48.55],
    [12.95, 48.2],
    [12.75, 47.67],
    [13.0, 47.47],
    [12.2, 47.6],
    [11.1, 47.4],
    [10.45, 47.55],
    [9.95, 47.55],
  ],
  CH: [
    [5.96, 46.15],
    [6.1, 46.6],
    [6.45, 46.95],
    [7.0, 47.45],
    [7.55, 47.58],
    [8.4, 47.6],
    [8.9, 47.65],
    [9.55, 47.5],
    [9.55, 47.05],
    [10.45, 46.9],
    [10.45, 46.55],
    [10.0, 46.3],
    [9.3, 46.5],
    [9.0, 45.85],
    [8.45, 46.3],
    [7.9, 45.95],
    [7.05, 45.9],
    [6.8, 46.1],
    [6.2, 46.35],
  ],
};

export interface MapDrawing {
  /** The SVG viewBox: 0 0 width height. */
  width: number;
  height: number;
  /** The outline as an SVG path, or null when no outline is known for the country (dots only). */
  outline: string | null;
  dots: (RegionDot & { x: number; y: number; r: number })[];
}

const WIDTH = 320;
const PAD = 12;

/**
 * Projects the country's outline and region dots into a viewBox WIDTH wide (equirectangular with the
 * longitude scaled by cos(latitude), which is faithful enough at these sizes).
 */
export function drawCountryMap(country: string, regions: readonly RegionDot[]): MapDrawing {
  const outline = OUTLINES[country] ?? null;
  const points: LonLat[] = [...(outline ?? []), ...regions.map((r) => [r.lon, r.lat] as const)];
  if (points.length === 0) return { width: WIDTH, height: WIDTH, outline: null, dots: [] };
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  const [minLon, maxLon, minLat, maxLat] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const k = Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const spanX = Math.max((maxLon - minLon) * k, 0.5);
  const spanY = Math.max(maxLat - minLat, 0.5);
  const scale = (WIDTH - 2 * PAD) / spanX;
  const height = Math.round(spanY * scale + 2 * PAD);
  const project = ([lon, lat]: LonLat): [number, number] => [round(PAD + (lon - minLon) * k * scale), round(PAD + (maxLat - lat) * scale)];
  const most = Math.max(1, ...regions.map((r) => r.members));
  return {
    width: WIDTH,
    height,
    outline: outline ? `M${outline.map((p) => project(p).join(',')).join('L')}Z` : null,
    dots: regions.map((region) => {
      const [x, y] = project([region.lon, region.lat]);
      return { ...region, x, y, r: round(3 + (5 * region.members) / most) };
    }),
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
