import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { signupSchema } from '../../server/accounts/signup';
import type { operations } from '../api-types';
import type { RequestBody } from './contract';
import { activationMailBody } from './activation-mail';
import { alertDismissBody } from './alert-dismiss';
import { autoLikeQuery } from './auto-like';
import { conversationQuery, readConversationBody, removeChatBody, sendMessageBody } from './chat';
import { chatPhotoFields } from './chat-photo';
import { discountQuery } from './discountcode';
import { gifsQuery } from './gifs';
import { likesQuery } from './likes';
import { memberTargetBody, memberTargetQuery } from './member-target';
import { pageBounceBody } from './page-events';
import { settingsQuery } from './settings';
import { SIGNUP_FIELDS, signupBody, type SignupRequest } from './signup';
import { swipeBody } from './swipe';
import { typingBody } from './typing';
import { userUpdateBody } from './user';

// What the browser builds (the OpenAPI request types openapi-fetch checks) is exactly what the server's
// schemas take: these lines fail `tsc` when the two drift apart.
expectTypeOf<z.input<typeof sendMessageBody>>().toEqualTypeOf<RequestBody<'sendMessage'>>();
expectTypeOf<z.input<typeof readConversationBody>>().toEqualTypeOf<RequestBody<'readConversation'>>();
expectTypeOf<z.input<typeof removeChatBody>>().toEqualTypeOf<RequestBody<'removeChat'>>();
expectTypeOf<z.input<typeof typingBody>>().toEqualTypeOf<RequestBody<'typing'>>();
expectTypeOf<z.input<typeof memberTargetBody>>().toEqualTypeOf<RequestBody<'likeMember'>>();
expectTypeOf<z.input<typeof memberTargetBody>>().toEqualTypeOf<RequestBody<'blockMember'>>();
expectTypeOf<z.input<typeof swipeBody>>().toEqualTypeOf<RequestBody<'swipe'>>();
expectTypeOf<z.input<typeof alertDismissBody>>().toEqualTypeOf<RequestBody<'dismissAlert'>>();
expectTypeOf<z.input<typeof activationMailBody>>().toEqualTypeOf<RequestBody<'resendActivationMail'>>();
expectTypeOf<z.input<typeof pageBounceBody>>().toEqualTypeOf<RequestBody<'pageBounce'>>();
expectTypeOf<z.input<typeof userUpdateBody>>().toEqualTypeOf<RequestBody<'updateUser'>>();

// Query parameters travel as text, so their types differ (a number in the contract is a string the
// schema converts); their names must not.
type QueryOf<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;
type KeysOf<T> = T extends unknown ? keyof T : never;
expectTypeOf<KeysOf<z.input<typeof conversationQuery>>>().toEqualTypeOf<keyof QueryOf<'getConversation'>>();
expectTypeOf<keyof z.input<typeof likesQuery>>().toEqualTypeOf<keyof QueryOf<'getLikes'>>();
expectTypeOf<keyof z.input<typeof memberTargetQuery>>().toEqualTypeOf<keyof QueryOf<'unlikeMember'>>();
expectTypeOf<keyof z.input<typeof autoLikeQuery>>().toEqualTypeOf<keyof QueryOf<'getAutoLike'>>();
expectTypeOf<keyof z.input<typeof gifsQuery>>().toEqualTypeOf<keyof QueryOf<'searchGifs'>>();
expectTypeOf<keyof z.input<typeof discountQuery>>().toEqualTypeOf<keyof QueryOf<'getDiscountCode'>>();
expectTypeOf<keyof z.input<typeof settingsQuery>>().toEqualTypeOf<keyof QueryOf<'getSettings'>>();
expectTypeOf<keyof z.input<typeof chatPhotoFields>>().toEqualTypeOf<Exclude<keyof NonNullable<operations['sendChatPhoto']['requestBody']>['content']['multipart/form-data'], 'photo'>>();
expectTypeOf<(typeof SIGNUP_FIELDS)[number]>().toEqualTypeOf<keyof SignupRequest>();

describe('request contracts', () => {
  it('the signup endpoint reads every field of the signup service, and no other', () => {
    expect([...SIGNUP_FIELDS].sort()).toEqual(Object.keys(signupSchema.shape).sort());
    expect(Object.keys(signupBody.shape).sort()).toEqual(Object.keys(signupSchema.shape).sort());
  });
});
