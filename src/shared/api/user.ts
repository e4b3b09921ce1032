/** /api/user.php (AUTH-01, I18N-03): the signed-in member; PUT changes their language. */
import { z } from 'zod';
import { LANGUAGES } from '../languages';
import type { Answer } from './contract';

export const userUpdateBody = z.object({ language: z.enum(LANGUAGES) });

export type UserAnswer = Answer<'getUser', 200>;
export type LoginAnswer = Answer<'login', 200>;
export type UserUpdateAnswer = Answer<'updateUser', 200>;
export type PushRegisterAnswer = Answer<'registerPush', 201>;
export type PushUnregisterAnswer = Answer<'unregisterPush', 200>;
