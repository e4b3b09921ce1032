/**
 * The view model of /profile (MEM-06): the profile form (decision 023) with what was just posted when
 * it was refused, else what is saved; the member's photos and the photo forms' outcome (decision 043);
 * the regions of the member's country and the ages the search range offers.
 */
import { ABOUT_MAX, regionsOf } from '../../members/profile-completion';
import { loadEditableProfile } from '../../members/profile-edit';
import { SEARCH_MAX_AGE } from '../../members/search';
import { listOwnPhotos } from '../../photos/manage';
import { photoLimitFor } from '../../photos/upload';
import { siteDateTimeFormat } from '../../sites/site-time';
import type { CurrentUser } from '../../members/account';
import { BODY_TYPES, EYE_COLOURS, HAIR_COLOURS, RELATIONSHIP_STATUSES, SIGNUP_REASONS, TATTOOS } from '../../../shared/interests';
import type { FormSpec, RefusedPost } from '../form-action';
import { profileForm, type ProfileEcho } from '../profile';
import { isPhotoAction, photoActions, readProfilePost, type PhotoAction } from '../photos';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'site' | 'lang'>;

/** The profile form (no `action`) and one form per photo action (decision 043). */
export function profileFormSpec(ctx: Ctx, user: Pick<CurrentUser, 'id' | 'paid_user'>): FormSpec<ProfileEcho, PhotoAction> {
  return { field: 'action', read: readProfilePost(ctx.t), actions: photoActions(ctx, user), otherwise: profileForm(ctx, user.id).handle };
}

/** Null when the member has no profile to edit (the page sends them to log in). */
export async function profilePage(ctx: Ctx, user: Pick<CurrentUser, 'id' | 'paid_user' | 'signup_date'>, posted: RefusedPost<ProfileEcho, PhotoAction> | null, url: URL) {
  const { app, site, lang } = ctx;
  const photoRefusal = posted && (isPhotoAction(posted.action) || posted.result.reason === 'photos') ? posted.result.formError : null;
  const profilePosted = photoRefusal === null ? posted : null;
  const ownPhotos = await listOwnPhotos(app.db, user.id);
  const photosDone = url.searchParams.get('photos');
  const profile = await loadEditableProfile(app.db, user.id);
  if (!profile) return null;
  const errors = profilePosted?.result.fieldErrors ?? {};
  const echo = profilePosted?.result.data ?? null;
  const regions = await regionsOf(app.db, profile.country);
  const minAge = site.settings.min_age;
  return {
    profile,
    errors,
    formError: profilePosted?.result.formError ?? null,
    saved: !posted && url.searchParams.get('saved') === '1',
    regions,
    ages: Array.from({ length: SEARCH_MAX_AGE - minAge + 1 }, (_, i) => minAge + i),
    aboutMax: ABOUT_MAX,
    memberSince: siteDateTimeFormat(lang, site.settings, { dateStyle: 'medium' }).format(new Date(user.signup_date)),
    photos: { photos: ownPhotos, limit: photoLimitFor(user.paid_user), counted: ownPhotos.filter((p) => p.status !== 'removed').length, done: posted ? null : photosDone, error: photoRefusal },
    /** The value a control shows: what was just posted when refused, else what is saved. */
    value: (field: string, stored: string | number | null): string => {
      if (echo) return typeof echo[field] === 'string' ? (echo[field] as string) : '';
      return stored === null ? '' : String(stored);
    },
    chosen: new Set(echo ? ((echo.interests as string[] | undefined) ?? []) : profile.interests),
    selects: [
      { field: 'hair_colour', values: HAIR_COLOURS, stored: profile.hairColour },
      { field: 'eye_colour', values: EYE_COLOURS, stored: profile.eyeColour },
      { field: 'body_type', values: BODY_TYPES, stored: profile.bodyType },
      { field: 'relationship_status', values: RELATIONSHIP_STATUSES, stored: profile.relationshipStatus },
      { field: 'tattoos', values: TATTOOS, stored: profile.tattoos },
      { field: 'signup_reason', values: SIGNUP_REASONS, stored: profile.signupReason },
    ] as const,
    described: (field: string) => (errors[field] ? `edit-${field}-error` : undefined),
  };
}
