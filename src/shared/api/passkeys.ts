/**
 * /api/passkeys.php and /api/passkey-login.php (PASS-01): the WebAuthn answers the browser sends, as
 * @simplewebauthn/browser makes them. Checked for shape and size here; what they mean, by the server.
 */
import { z } from 'zod';
import type { Answer } from './contract';

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/);

const credential = <R extends z.ZodType>(response: R) =>
  z.object({
    id: base64url(1400).min(1),
    rawId: base64url(1400).min(1),
    type: z.literal('public-key'),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.looseObject({}).default({}),
    response,
  });

export const passkeyRegistrationBody = z.object({
  name: z.string().max(200).optional(),
  response: credential(
    z.looseObject({
      clientDataJSON: base64url(4000).min(1),
      attestationObject: base64url(20000).min(1),
      transports: z.array(z.string().max(20)).max(10).optional(),
    }),
  ),
});

export const passkeyLoginBody = z.object({
  response: credential(
    z.looseObject({
      clientDataJSON: base64url(4000).min(1),
      authenticatorData: base64url(4000).min(1),
      signature: base64url(8000).min(1),
      userHandle: base64url(200).optional(),
    }),
  ),
});

export const staffPasskeyOptionsBody = z.object({ purpose: z.enum(['login', 'register']) });

export type PasskeyOptionsAnswer = Answer<'passkeyRegistrationOptions', 200>;
export type PasskeyLoginOptionsAnswer = Answer<'passkeyLoginOptions', 200>;
export type AddPasskeyAnswer = Answer<'addPasskey', 201>;
export type PasskeyLoginAnswer = Answer<'passkeyLogin', 200>;
export type StaffPasskeyOptionsAnswer = Answer<'staffPasskeyOptions', 200>;
