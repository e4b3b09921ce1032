/**
 * The demo seed's portraits, rendered once per test run instead of once per test database.
 *
 * The seed names its photo files after the plan (site, member, photo number) and renders only the files
 * its store does not hold yet (src/db/seed.ts, "a kept photo folder is reused as is"), so a seed with the
 * same number of members per site always ends with the same photo folder. The first test database of a
 * run with a given number keeps a copy of its folder here; the next ones start from that copy, and the
 * seed finds every file there: the same folder, without rendering ~50 portraits with sharp again
 * (about 1.4 s of CPU for 12 members per site, 6 s for 48).
 *
 * The folder lives in `SEED_PHOTO_CACHE`, made by the global setup for the run (tests/setup/global.ts);
 * without it nothing is kept and every seed renders as before.
 */
import { cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

const snapshot = (profilesPerSite: number): string | null => {
  const root = process.env.SEED_PHOTO_CACHE;
  return root ? join(root, `profiles-per-site-${profilesPerSite}`) : null;
};

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Fills `photoDir` with the photo folder a seed with `profilesPerSite` made before in this run; false when none did yet. */
export async function restoreSeedPhotos(photoDir: string, profilesPerSite: number): Promise<boolean> {
  const kept = snapshot(profilesPerSite);
  if (!kept || !(await exists(kept))) return false;
  await cp(kept, photoDir, { recursive: true });
  return true;
}

/** Keeps a copy of the photo folder a seed with `profilesPerSite` just made, unless one is kept already. */
export async function keepSeedPhotos(photoDir: string, profilesPerSite: number): Promise<void> {
  const kept = snapshot(profilesPerSite);
  if (!kept || (await exists(kept))) return;
  // Copied aside first and renamed into place, so another test worker never sees half a folder.
  const staging = await mkdtemp(`${kept}.staging-`);
  try {
    await cp(photoDir, staging, { recursive: true });
    await rename(staging, kept);
  } catch {
    // Another worker kept the same folder first: theirs stays.
    await rm(staging, { recursive: true, force: true });
  }
}
