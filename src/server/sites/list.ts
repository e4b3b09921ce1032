/** The sites as the back office lists them (its site pickers and the site settings list), by id. */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sites } from '../../db/schema';

export interface SiteSummary {
  id: number;
  name: string;
  domain: string;
  niche: number;
  inviteOnly: boolean;
}

export async function listSites(db: Db): Promise<SiteSummary[]> {
  return db.select({ id: sites.id, name: sites.name, domain: sites.domain, niche: sites.niche, inviteOnly: sites.inviteOnly }).from(sites).orderBy(asc(sites.id));
}

export async function siteExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, id)).limit(1);
  return row !== undefined;
}
