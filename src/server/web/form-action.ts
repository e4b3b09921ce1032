/**
 * Server forms with post-redirect-get (ARCHITECTURE: pages stay thin; docs/decisions/023-server-forms-and-post-only-changes.md).
 *
 * A page hands its request and a {@link FormSpec} to {@link handlePost}. The body is read once, the
 * action is picked by a named field (a hidden input, or the `name`/`value` of the submit button), and
 * that action's handler — a plain function of the posted form, no Astro in it — answers with a
 * {@link FormResult}:
 * - `redirect`: the change is made; the browser is sent on with 303 (post-redirect-get), carrying the
 *   session or language cookie the result names;
 * - `invalid`: nothing changed; the page renders again with the status and the translated errors.
 */
import type { AstroCookies } from 'astro';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE, type Language } from '../../shared/languages';
import { cookieOptions } from './cookies';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { setDeviceCookie } from './device-cookie';

/** The posted form, read once. */
export interface PostedForm {
  readonly data: FormData;
  /** The first text value of `name`; '' when it is missing or a file. */
  text(name: string): string;
  /** Every text value of `name` (checkbox groups). */
  all(name: string): string[];
  /** The uploaded file, when the spec's reader took one out of a multipart body; otherwise null. */
  readonly file: Buffer | null;
}

/**
 * Success: go to `to` with 303. `session` logs this browser in (a new token) or out; `language` sets the
 * language cookie; `device` keeps the device cookie a login issued (SEC-13).
 */
export interface FormRedirect {
  type: 'redirect';
  to: string;
  session?: { token: string } | 'end';
  language?: Language;
  device?: string;
}

/** Refused: nothing changed. The page shows the form again with these translated errors. */
export interface FormInvalid<D = undefined> {
  type: 'invalid';
  status: number;
  /** Translated error per field name. */
  fieldErrors: Record<string, string>;
  /** Translated error about the form as a whole, or null. */
  formError: string | null;
  /** A stable code for the reason, for pages that show a different block per reason. */
  reason?: string;
  /** Anything else the page shows again (values cleaned by the rules, a suggestion). */
  data?: D;
}

export type FormResult<D = undefined> = FormRedirect | FormInvalid<D>;

export type FormHandler<D = undefined> = (form: PostedForm) => FormResult<D> | Promise<FormResult<D>>;

/** What a custom reader gives: the form (and file), or the refusal when the body cannot be taken. */
export type ReadForm<D = undefined> = { type: 'form'; data: FormData; file: Buffer | null } | FormInvalid<D>;

interface SpecCommon<D> {
  /** Reads the body; by default `request.formData()`, and an unreadable body counts as an empty form. */
  read?: (request: Request) => Promise<ReadForm<D>>;
}

/** A page with several forms: `field` names the action, `otherwise` answers a form that names none of them. */
export interface MultiActionSpec<D = undefined, A extends string = string> extends SpecCommon<D> {
  field: string;
  actions: Record<A, FormHandler<D>>;
  otherwise: FormHandler<D>;
}

/** A page with one form. */
export interface SingleActionSpec<D = undefined> extends SpecCommon<D> {
  handle: FormHandler<D>;
}

export type FormSpec<D = undefined, A extends string = string> = MultiActionSpec<D, A> | SingleActionSpec<D>;

/** What the page gets back when the post was refused: the action tried, the posted form and the result. */
export interface RefusedPost<D = undefined, A extends string = string> {
  /** The action the form named (null for an unknown one, and on single-action pages). */
  action: A | null;
  form: PostedForm | null;
  result: FormInvalid<D>;
}

/** The outcome of one post, before anything is written to the response. */
export interface FormOutcome<D = undefined, A extends string = string> {
  action: A | null;
  form: PostedForm | null;
  result: FormResult<D>;
}

/** Wraps FormData with the reading rules every form shares. */
export function postedForm(data: FormData, file: Buffer | null = null): PostedForm {
  return {
    data,
    file,
    text: (name) => {
      const value = data.get(name);
      return typeof value === 'string' ? value : '';
    },
    all: (name) => data.getAll(name).filter((value): value is string => typeof value === 'string'),
  };
}

/** A refusal with a status and translated errors (a shorthand for handlers). */
export function invalid<D = undefined>(status: number, errors: { fieldErrors?: Record<string, string>; formError?: string | null; reason?: string; data?: D }): FormInvalid<D> {
  return { type: 'invalid', status, fieldErrors: errors.fieldErrors ?? {}, formError: errors.formError ?? null, reason: errors.reason, data: errors.data };
}

/** Success: 303 to `to` (a shorthand for handlers). */
export function redirect(to: string, effects: Omit<FormRedirect, 'type' | 'to'> = {}): FormRedirect {
  return { type: 'redirect', to, ...effects };
}

async function readDefault(request: Request): Promise<ReadForm<never>> {
  const data = await request.formData().catch(() => new FormData());
  return { type: 'form', data, file: null };
}

/**
 * Reads the posted form once and runs the action it names. Pure apart from the handler's own work:
 * nothing is written to any response (see {@link handlePost} for that).
 */
export async function runFormAction<D, A extends string>(request: Request, spec: FormSpec<D, A>): Promise<FormOutcome<D, A>> {
  const read = spec.read ? await spec.read(request) : await readDefault(request);
  if (read.type === 'invalid') return { action: null, form: null, result: read };
  const form = postedForm(read.data, read.file);
  if ('handle' in spec) return { action: null, form, result: await spec.handle(form) };
  const named = form.text(spec.field);
  if (!Object.hasOwn(spec.actions, named)) return { action: null, form, result: await spec.otherwise(form) };
  const action = named as A;
  return { action, form, result: await spec.actions[action](form) };
}

/** The parts of a page (`Astro` fits) that answering a post needs. */
export interface FormPage {
  request: Request;
  cookies: AstroCookies;
  locals: { secure: boolean };
  response: { status?: number };
  redirect(path: string, status: 303): Response;
}

/**
 * Answers a POST to `page`: on success the 303 redirect (with the cookies the result names), to be
 * returned by the page; when refused, sets the response status and returns what the page shows again.
 * Any other method: null (the page renders as for a GET).
 *
 * ```astro
 * const posted = await handlePost(Astro, settingsForm(Astro.locals, user));
 * if (posted instanceof Response) return posted;
 * ```
 */
export async function handlePost<D, A extends string>(page: FormPage, spec: FormSpec<D, A>): Promise<Response | RefusedPost<D, A> | null> {
  if (page.request.method !== 'POST') return null;
  const { action, form, result } = await runFormAction(page.request, spec);
  if (result.type === 'redirect') {
    if (result.session === 'end') clearSessionCookie(page.cookies);
    else if (result.session) setSessionCookie(page.cookies, result.session.token, page.locals.secure);
    if (result.language) page.cookies.set(LANGUAGE_COOKIE, result.language, cookieOptions(page.locals.secure, LANGUAGE_COOKIE_MAX_AGE, false));
    if (result.device) setDeviceCookie(page.cookies, result.device, page.locals.secure);
    return page.redirect(result.to, 303);
  }
  page.response.status = result.status;
  return { action, form, result };
}

/** The translated text of every field's error code (`text` turns a field's code into its message). */
export function translateFields(fields: Readonly<Record<string, string | undefined>>, text: (code: string, field: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, code] of Object.entries(fields)) if (code) out[field] = text(code, field);
  return out;
}
