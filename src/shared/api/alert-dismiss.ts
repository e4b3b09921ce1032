/** /api/alert-dismiss.php (ALR-04): a warning banner dismissed, from a form post or a script. */
import { z } from 'zod';
import type { Answer } from './contract';

/** The warning banners a member can dismiss. */
export const ALERT_KEYS = ['enrich', 'push', 'notifications_disabled', 'time_bonus'] as const;

export const alertDismissBody = z.object({ alert: z.enum(ALERT_KEYS), next: z.string().max(500).optional() });

export type AlertDismissAnswer = Answer<'dismissAlert', 200>;
