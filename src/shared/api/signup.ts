/**
 * /api/signup.php (SIGN-03..06, AUTH-05): sign up and log in. The endpoint reads the body loosely, field
 * by field: the signup service checks each one and names every problem (`fields`, `field_messages`).
 */
import { z } from 'zod';
import type { Answer, Schema } from './contract';

/** The fields of a signup; the service's own schema has exactly these (api.test.ts checks it). */
export const SIGNUP_FIELDS = [
  'email',
  'name',
  'password',
  'date_of_birth',
  'gender',
  'looking_for',
  'signup_message',
  'member_id',
  'invitation',
  'public_profile',
] as const satisfies readonly (keyof SignupRequest)[];

/** Every field optional and of any type: what is wrong with them is the service's answer, not a bare 400. */
export const signupBody = z.object(Object.fromEntries(SIGNUP_FIELDS.map((k) => [k, z.unknown()]))).partial();

export type SignupRequest = Schema<'SignupRequest'>;
export type SignupAnswer = Answer<'signup', 201>;
export type SignupErrorAnswer = Answer<'signup', 400>;
