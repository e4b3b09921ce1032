/**
 * The partner a site advertises in its live-cam block (HON-01, LND-05), as the site and /photos read it.
 * Staff set it up in the back office (../staff/partners-admin.ts); the block shows the partner's own
 * images, labelled as the partner's advertisement, and nothing of the site's members.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sitePartners, type PartnerImage } from '../../db/schema';

export interface SitePartner {
  name: string;
  url: string;
  images: PartnerImage[];
}

/** A site's partner, or null when none is configured (the block is then not shown). */
export async function loadPartner(db: Pick<Db, 'select'>, siteId: number): Promise<SitePartner | null> {
  const [row] = await db.select().from(sitePartners).where(eq(sitePartners.siteId, siteId)).limit(1);
  return row ? { name: row.name, url: row.url, images: row.images } : null;
}

/** Whether `name` is one of a partner's images on `siteId` (what /photos may send to anyone there). */
export async function isPartnerImage(db: Db, siteId: number, name: string): Promise<boolean> {
  const [row] = await db
    .select({ siteId: sitePartners.siteId })
    .from(sitePartners)
    .where(sql`${sitePartners.siteId} = ${siteId} and exists (select 1 from jsonb_array_elements(${sitePartners.images}) as i where i->>'file' = ${name})`)
    .limit(1);
  return row !== undefined;
}

/**
 * The partner's link as the block sends it: the partner's own tracking stays as staff entered it, and the
 * site is named as the source (utm_source = its domain) unless the link names one already.
 */
export function partnerHref(url: string, domain: string): string {
  const link = new URL(url);
  if (!link.searchParams.has('utm_source')) {
    link.searchParams.set('utm_source', domain);
    link.searchParams.set('utm_medium', 'referral');
    link.searchParams.set('utm_campaign', 'live_cam_block');
  }
  return link.toString();
}
