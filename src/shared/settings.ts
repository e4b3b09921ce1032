/**
 * The site settings as `/api/settings.php` returns them (SPEC §3 Settings, SITE-02), checked by zod
 * whenever a site is loaded so a bad row is reported instead of half-rendering a site.
 */
import { z } from 'zod';
import { LANGUAGES } from './languages';

const countryCode = z.string().regex(/^[A-Z]{2}$/, 'ISO country code');

export const NICHES = { 1: '', 2: 'she-', 3: 'bdsm-', 4: 'bbw-', 5: 'gilf-', 6: 'milf-', 7: 'gay-' } as const;
export type Niche = keyof typeof NICHES;

export const settingsSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  index_title: z.string().min(1),
  description: z.string().min(1),
  domain: z.string().min(1),
  domain_language: z.enum(LANGUAGES),
  languages: z.array(z.enum(LANGUAGES)).min(1),
  cdn_prefix: z.string(),
  niche: z.number().int().min(1).max(7),
  company_id: z.number().int().positive(),
  mail_name: z.string().min(1),
  countries: z.array(countryCode).min(1),
  signups: z.enum(['all', 'with_trafficsource', 'other']),
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  geoip_country: countryCode,
  geoip_selected_country: countryCode,
  enable_site_entry_popup: z.boolean(),
  push_public_key: z.string().nullable(),
  support_phone: z.string().min(1),
  support_email: z.email(),
  fictional_icon: z.string().min(1),
  fictional_warning: z.string().min(1),
  fictional_singular: z.string().min(1),
  fictional_plural: z.string().min(1),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.boolean(),
  search_fields: z.array(z.string()),
  message_credits: z.number().int().min(0),
  photo_credits: z.number().int().min(0),
  gift_credits: z.number().int().min(0),
  signup_credits: z.number().int().min(0),
  message_length: z.number().int().min(1),
  minimum_message_costs: z.record(countryCode, z.object({ costs: z.number().int().min(0), currency: z.string().length(3) })),
  refund_days: z.number().int().min(0),
  member_resell: z.boolean(),
  min_age: z.number().int().min(18).max(99),
  invite_only: z.boolean(),
  live_cam_promo: z.boolean(),
  us_legal_footer: z.boolean(),
});

export type Settings = z.infer<typeof settingsSchema>;

export const companyInfoSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  address: z.string().min(1),
  kvk: z.string().min(1),
  city: z.string().min(1),
  country: z.string().min(1),
  tradenames: z.array(z.string()),
  vat_numbers: z.array(z.string()),
  support_phone: z.string().min(1),
  delete_discount: z.number().int().min(0).max(100),
  added: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;

/** A phone number fit for a tel: link: dashes and spaces removed (SITE-05). */
export function cleanPhone(phone: string): string {
  return phone.replace(/[\s-]/g, '');
}
