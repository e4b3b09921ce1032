/** /api/discountcode.php (CRD-06, CRD-07, TB-01): the active discount, the welcome code, or a code checked. */
import { z } from 'zod';
import type { Answer } from './contract';

export const discountQuery = z.object({
  welcome: z.enum(['true', 'false', '1', '0']).optional(),
  code: z.string().max(60).optional(),
});

export type DiscountAnswer = Answer<'getDiscountCode', 200>;
