/** /api/block.php (BLK-01): block and unblock take a member target (member-target.ts). */
import type { Answer } from './contract';

export type BlockAnswer = Answer<'blockMember', 200 | 201>;
export type UnblockAnswer = Answer<'unblockMember', 200>;
