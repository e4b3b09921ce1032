/** /api/settings.php (SITE-01, SITE-02): the settings of the site the host or the forced `domain` selects. */
import { z } from 'zod';
import type { Answer } from './contract';

export const settingsQuery = z.object({
  route: z.string().max(200).optional(),
  domain: z.string().max(253).optional(),
});

export type SettingsAnswer = Answer<'getSettings', 200>;
