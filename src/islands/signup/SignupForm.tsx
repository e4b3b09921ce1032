/**
 * The signup form (SIGN-03..06). Server-rendered it is a plain form posting to /signup, so it works
 * before hydration; hydrated it posts to /api/signup.php (its signup store, src/stores/signup.ts) and
 * shows each field's error in place, with the 'did you mean' suggestion for a mistyped e-mail domain.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { suggestEmail } from '../../shared/email';
import { createSignup, type SignupRequest } from '../../stores/signup';
import { checkedIn, typedValues } from '../typed-values';

export interface SignupFormProps {
  messages: Messages;
  minAge: number;
  /** Latest allowed birth date (yyyy-mm-dd) for the date input's max. */
  maxBirthDate: string;
  member?: { id: number; name: string } | undefined;
  /** LND-06: the invitation link's token; the e-mail address is the invited one. */
  invitation?: string;
  initial?: Partial<Record<'email' | 'name' | 'date_of_birth' | 'gender' | 'looking_for' | 'signup_message' | 'public_profile', string>>;
  /** Field → message, from a post without JavaScript. */
  errors?: Record<string, string>;
  suggestion?: string | null;
  /** Tells a surrounding modal that signup is in progress (it must not close then). */
  onBusyChange?: (busy: boolean) => void;
  /** Where to go after signing up. */
  next?: string;
}

export default function SignupForm(props: SignupFormProps) {
  const t = createClientTranslator(props.messages, 'signup');
  const id = useId();
  const [values, setValues] = useState({
    email: props.initial?.email ?? '',
    name: props.initial?.name ?? '',
    password: '',
    date_of_birth: props.initial?.date_of_birth ?? '',
    gender: props.initial?.gender ?? 'male',
    looking_for: props.initial?.looking_for ?? 'female',
    signup_message: props.initial?.signup_message ?? '',
  });
  // HON-02: asked, never assumed: off unless the visitor ticks it.
  const [publicProfile, setPublicProfile] = useState(props.initial?.public_profile === '1');
  const [signup] = useState(() => createSignup({ errors: props.errors, suggestion: props.suggestion }));
  const { status, errors, suggestion, refusal } = useStore(signup.$signup);
  const formError = refusal ? (refusal.message ?? t('errors:generic')) : null;

  // Whatever was typed before the island hydrated lives only in the DOM: take it over once (UX-03).
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const typed = typedValues(formRef.current, values);
    if (Object.keys(typed).length > 0) setValues((v) => ({ ...v, ...typed }));
    const ticked = formRef.current ? checkedIn(formRef.current, 'public_profile', '1') : undefined;
    if (ticked !== undefined && ticked !== publicProfile) setPublicProfile(ticked);
    // Only once, right after hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'busy') return;
    props.onBusyChange?.(true);
    // The form's values as the visitor chose them; the server checks them all (its messages come back per field).
    const request = {
      ...values,
      public_profile: publicProfile,
      ...(props.member ? { member_id: props.member.id } : {}),
      ...(props.invitation ? { invitation: props.invitation } : {}),
    } as SignupRequest;
    const result = await signup.submit(request);
    if (result.type === 'ok') {
      window.location.assign(props.next ?? '/complete-signup');
      return;
    }
    props.onBusyChange?.(false);
  }

  const field = (name: string) => ({
    id: `${id}-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    className: `form-control${errors[name] ? ' is-invalid' : ''}`,
  });
  const error = (name: string) =>
    errors[name] ? (
      <div className="invalid-feedback d-block" id={`${id}-${name}-error`} data-field-error={name}>
        {errors[name]}
      </div>
    ) : null;
  const liveSuggestion = suggestion ?? (values.email.includes('@') ? suggestEmail(values.email) : null);

  return (
    <form
      ref={formRef}
      method="post"
      action={props.invitation ? `/signup?invitation=${encodeURIComponent(props.invitation)}` : props.member ? `/signup?member=${props.member.id}` : '/signup'}
      onSubmit={submit}
      noValidate
      aria-busy={status === 'busy'}
      data-signup-form
    >
      <div className="signup-progress-head" data-signup-progress>
        <p className="signup-progress-label" id={`${id}-progress`}>
          {t('progress', { step: 1, total: 2 })} · {t('progress_account')}
        </p>
        <progress className="signup-progress-bar" max={2} value={1} aria-labelledby={`${id}-progress`} />
        <p className="signup-progress-next">{t('progress_next')}</p>
      </div>
      {Object.keys(errors).length > 0 && (
        <p className="alert alert-danger py-2" role="alert" data-signup-errors>
          {t('errors_summary')}
        </p>
      )}
      {formError && (
        <div className="alert alert-danger" role="alert">
          {formError}
        </div>
      )}
      <div className="mb-2">
        <label className="form-label" htmlFor={`${id}-email`}>
          {t('email')}
        </label>
        <input {...field('email')} type="email" autoComplete="email" required maxLength={254} value={values.email} onChange={set('email')} readOnly={Boolean(props.invitation)} />
        {error('email')}
        {liveSuggestion && (
          <p className="small mb-0 mt-1" data-email-suggestion>
            {t('did_you_mean', { email: liveSuggestion })}{' '}
            <button
              type="button"
              className="btn btn-link btn-sm p-0 align-baseline"
              onClick={() => {
                setValues((v) => ({ ...v, email: liveSuggestion }));
                signup.clearSuggestion();
              }}
            >
              {t('use_suggestion', { email: liveSuggestion })}
            </button>
          </p>
        )}
      </div>
      <div className="mb-2">
        <label className="form-label" htmlFor={`${id}-name`}>
          {t('name')}
        </label>
        <input {...field('name')} type="text" autoComplete="nickname" required maxLength={30} value={values.name} onChange={set('name')} />
        {error('name')}
      </div>
      <div className="mb-2">
        <label className="form-label" htmlFor={`${id}-password`}>
          {t('password')}
        </label>
        <input {...field('password')} type="password" autoComplete="new-password" required minLength={8} maxLength={128} value={values.password} onChange={set('password')} />
        <div className="form-text">{t('password_help')}</div>
        {error('password')}
      </div>
      <div className="mb-2">
        <label className="form-label" htmlFor={`${id}-date_of_birth`}>
          {t('date_of_birth')}
        </label>
        <input {...field('date_of_birth')} type="date" required max={props.maxBirthDate} value={values.date_of_birth} onChange={set('date_of_birth')} />
        <div className="form-text">{t('date_of_birth_help', { min_age: props.minAge })}</div>
        {error('date_of_birth')}
      </div>
      <div className="row g-2 mb-2">
        <div className="col-6">
          <label className="form-label" htmlFor={`${id}-gender`}>
            {t('gender')}
          </label>
          <select id={`${id}-gender`} name="gender" className="form-select" value={values.gender} onChange={set('gender')}>
            <option value="male">{t('male')}</option>
            <option value="female">{t('female')}</option>
          </select>
        </div>
        <div className="col-6">
          <label className="form-label" htmlFor={`${id}-looking_for`}>
            {t('looking_for')}
          </label>
          <select id={`${id}-looking_for`} name="looking_for" className="form-select" value={values.looking_for} onChange={set('looking_for')}>
            <option value="female">{t('female')}</option>
            <option value="male">{t('male')}</option>
            <option value="both">{t('both')}</option>
          </select>
        </div>
      </div>
      {props.member && (
        <div className="mb-2">
          <label className="form-label" htmlFor={`${id}-signup_message`}>
            {t('signup_message', { name: props.member.name })}
          </label>
          <textarea {...field('signup_message')} className="form-control" rows={2} maxLength={500} value={values.signup_message} onChange={set('signup_message')} />
          <input type="hidden" name="member_id" value={props.member.id} />
        </div>
      )}
      <div className="form-check mb-2">
        <input
          className="form-check-input"
          type="checkbox"
          id={`${id}-public_profile`}
          name="public_profile"
          value="1"
          checked={publicProfile}
          onChange={(e) => setPublicProfile(e.target.checked)}
          aria-describedby={`${id}-public_profile-help`}
        />
        <label className="form-check-label" htmlFor={`${id}-public_profile`}>
          {t('public_profile')}
        </label>
        <div className="form-text" id={`${id}-public_profile-help`}>
          {t('public_profile_help')}
        </div>
      </div>
      <p className="small text-body-secondary">{t('terms', { min_age: props.minAge })}</p>
      <button className="btn btn-primary w-100" type="submit" disabled={status === 'busy'}>
        {status === 'busy' ? t('busy') : t('submit')}
      </button>
    </form>
  );
}
