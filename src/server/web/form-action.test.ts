import type { AstroCookies } from 'astro';
import { describe, expect, it, vi } from 'vitest';
import { handlePost, invalid, postedForm, redirect, runFormAction, translateFields, type FormPage, type MultiActionSpec } from './form-action';

function post(body: string | FormData, type = 'application/x-www-form-urlencoded'): Request {
  return new Request('http://localhost/settings', {
    method: 'POST',
    body,
    headers: typeof body === 'string' ? { 'content-type': type } : {},
  });
}

/** A stand-in for `Astro`: records the cookies written and the redirect given. */
function page(request: Request) {
  const written: Array<[string, string, Record<string, unknown>]> = [];
  const deleted: string[] = [];
  const cookies = {
    set: (name: string, value: string, options: Record<string, unknown>) => void written.push([name, value, options]),
    delete: (name: string) => void deleted.push(name),
  } as unknown as AstroCookies;
  const response: { status?: number } = {};
  const target: FormPage = {
    request,
    cookies,
    locals: { secure: true },
    response,
    redirect: (path, status) => new Response(null, { status, headers: { location: path } }),
  };
  return { target, written, deleted, response };
}

/** Two actions that record what they were given, and the answer for anything else. */
function spec() {
  const calls: string[] = [];
  const actions: MultiActionSpec<undefined, 'save' | 'remove'> = {
    field: 'form',
    actions: {
      save: (form) => {
        calls.push(`save:${form.text('name')}`);
        return form.text('name') ? redirect('/settings?saved=1') : invalid(400, { fieldErrors: { name: 'Fill in a name' } });
      },
      remove: async () => {
        calls.push('remove');
        return redirect('/gone', { session: 'end' });
      },
    },
    otherwise: () => invalid(400, { formError: 'Unknown choice' }),
  };
  return { calls, actions };
}

describe('form actions', () => {
  it('SET-01 the named field picks the one action that runs; success is a 303 to the next page (post-redirect-get)', async () => {
    const { calls, actions } = spec();
    const { target, response } = page(post('form=save&name=Ada'));
    const answer = await handlePost(target, actions);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(303);
    expect((answer as Response).headers.get('location')).toBe('/settings?saved=1');
    expect(calls).toEqual(['save:Ada']);
    expect(response.status).toBeUndefined();
  });

  it('SET-01 a refused action sets the status and hands back its errors, the action and the posted form', async () => {
    const { actions } = spec();
    const { target, response } = page(post('form=save&name='));
    const answer = await handlePost(target, actions);
    expect(answer).not.toBeInstanceOf(Response);
    const refused = answer as Exclude<typeof answer, Response | null>;
    expect(response.status).toBe(400);
    expect(refused.action).toBe('save');
    expect(refused.result).toEqual({ type: 'invalid', status: 400, fieldErrors: { name: 'Fill in a name' }, formError: null, reason: undefined, data: undefined });
    expect(refused.form?.text('form')).toBe('save');
  });

  it('SET-01 an unknown action, an inherited property name or an unreadable body runs no action: the page gets `otherwise`', async () => {
    for (const request of [post('form=delete_everything'), post('form=constructor'), post('form=__proto__'), post('{"form":"save"}', 'application/json'), post('')]) {
      const { calls, actions } = spec();
      const outcome = await runFormAction(request, actions);
      expect(outcome.action).toBeNull();
      expect(outcome.result).toMatchObject({ type: 'invalid', status: 400, formError: 'Unknown choice' });
      expect(calls).toEqual([]);
    }
  });

  it('SEC-12 a GET (or any method but POST) runs no action and changes nothing', async () => {
    const { calls, actions } = spec();
    for (const method of ['GET', 'HEAD', 'PUT']) {
      const { target, written, deleted } = page(new Request('http://localhost/settings?form=remove', { method }));
      expect(await handlePost(target, actions)).toBeNull();
      expect(written).toEqual([]);
      expect(deleted).toEqual([]);
    }
    expect(calls).toEqual([]);
  });

  it('AUTH-04 a redirect that ends the session clears the cookie; one with a new session sets it (Secure over HTTPS)', async () => {
    const { actions } = spec();
    const ended = page(post('form=remove'));
    await handlePost(ended.target, actions);
    expect(ended.deleted).toEqual(['session']);

    const loggedIn = page(post('x=1'));
    const answer = await handlePost(loggedIn.target, { handle: () => redirect('/members', { session: { token: 'tok' } }) });
    expect((answer as Response).status).toBe(303);
    expect(loggedIn.written).toEqual([['session', 'tok', expect.objectContaining({ httpOnly: true, secure: true, sameSite: 'lax' })]]);
  });

  it('I18N-02 a redirect that carries a language sets the lang cookie for 365 days, readable by scripts', async () => {
    const { target, written } = page(post('lang=de'));
    await handlePost(target, { handle: (form) => redirect('/', { language: form.text('lang') as 'de' }) });
    expect(written).toEqual([['lang', 'de', expect.objectContaining({ maxAge: 365 * 24 * 3600, httpOnly: false })]]);
  });

  it('SET-02 a single-action form reads text and checkbox groups once; files never pass as text', async () => {
    const data = new FormData();
    data.append('enabled', 'news');
    data.append('enabled', 'likes');
    data.append('enabled', new File(['x'], 'x.txt'));
    data.append('name', new File(['x'], 'x.txt'));
    const handle = vi.fn((form: ReturnType<typeof postedForm>) => {
      expect(form.all('enabled')).toEqual(['news', 'likes']);
      expect(form.text('name')).toBe('');
      expect(form.text('missing')).toBe('');
      return redirect('/notifications?saved=1');
    });
    const outcome = await runFormAction(post(data), { handle });
    expect(outcome.result).toEqual({ type: 'redirect', to: '/notifications?saved=1' });
    expect(handle).toHaveBeenCalledOnce();
  });

  it('PHO-04 a custom reader may refuse the body before any action runs', async () => {
    const { calls, actions } = spec();
    const outcome = await runFormAction(post('form=save&name=Ada'), { ...actions, read: async () => invalid(413, { formError: 'Too large' }) });
    expect(outcome).toEqual({ action: null, form: null, result: expect.objectContaining({ status: 413, formError: 'Too large' }) });
    expect(calls).toEqual([]);
  });

  it('SET-01 translateFields turns each field’s code into its text and skips empty ones', () => {
    expect(translateFields({ email: 'invalid_email', password: undefined, name: 'too_long' }, (code, field) => `${field}:${code}`)).toEqual({ email: 'email:invalid_email', name: 'name:too_long' });
  });
});
