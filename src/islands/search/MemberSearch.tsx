/**
 * The `/members` search (MEM-01, MEM-05, MEM-07, MEM-08). The server renders it whole: a GET form and a
 * 'more members' link carrying the cursor, which work without JavaScript. Once hydrated (on the first
 * interaction with a control) the form and the link go through `$search`: a new search without a page
 * load and in the URL (back and forward restore it), 'load more' appending. The region list narrows to
 * the chosen country from `$regions`; 'use my location' preselects country and region (geocode).
 * On a phone the form is a bottom sheet (a native <dialog>) behind a 'Filters' button that counts the
 * filters in the URL; from 576 px the same dialog stands in the page as a card (_members.scss, decision
 * 078). Without JavaScript the button is a link to the form (`:target` shows it).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { ISLAND_READY_EVENT } from '../../shared/island-ready';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { unpackProps, type PackedProps } from '../../shared/island-props';
import { searchUrl, type SearchQuery } from '../../shared/search-query';
import { $location, $regions, checkLocationPermission, loadRegions, locateMe as locate } from '../../stores/places';
import { $search, initSearch, loadMore, restoreFromUrl, search, type SearchState } from '../../stores/search';
import { checkedIn, typedValues } from '../typed-values';
import { MemberCardItem, MemberCardSkeleton, type CardSettings } from './MemberCardItem';

/** How many skeleton cards stand for the page being loaded. */
const SKELETONS = 4;
/** Phones get the filters as a sheet (the sheet's breakpoint in _components.scss). */
const PHONE = '(max-width: 575.98px)';

/**
 * How many filters narrow the search as applied (the member's defaults included): one gender, a country,
 * a region, an age range narrower than the site's. The 'Filters' button shows the count.
 */
function activeFilters(applied: SearchState['applied'], ages: { min: number; max: number }): number {
  return (
    (applied.gender.length === 1 ? 1 : 0) +
    (applied.country ? 1 : 0) +
    (applied.region !== undefined ? 1 : 0) +
    (applied.minAge > ages.min || applied.maxAge < ages.max ? 1 : 0) +
    (applied.verified ? 1 : 0)
  );
}

export interface MemberSearchProps {
  messages: Messages;
  /** The page's language (the cards count years by its plural rules, UX-05). */
  lang: string;
  initial: Omit<SearchState, 'status'>;
  /** The site's countries with their names in the page language. */
  countries: Array<{ code: string; name: string }>;
  /** Regions per country as the server knows them (rendered before `$regions` has loaded). */
  regions: Array<{ code: string; regions: Array<{ id: number; name: string }> }>;
  card: CardSettings;
  minAge: number;
  maxAge: number;
  /** The page shows a later page (a cursor in the URL, no JavaScript): offer the first page. */
  laterPage: boolean;
}

interface Draft {
  male: boolean;
  female: boolean;
  country: string;
  region: string;
  minAge: string;
  maxAge: string;
  verified: boolean;
}

function draftOf(applied: SearchState['applied']): Draft {
  return {
    male: applied.gender.includes('male'),
    female: applied.gender.includes('female'),
    country: applied.country ?? '',
    region: applied.region === undefined ? '' : String(applied.region),
    minAge: String(applied.minAge),
    maxAge: String(applied.maxAge),
    verified: applied.verified === true,
  };
}

function queryOf(d: Draft): SearchQuery {
  const num = (v: string) => (v.trim() === '' ? undefined : Number(v));
  return {
    gender: [...(d.male ? ['male'] : []), ...(d.female ? ['female'] : [])],
    ...(d.country ? { country: d.country } : {}),
    ...(d.region ? { region: Number(d.region) } : {}),
    ...(num(d.minAge) !== undefined ? { minAge: num(d.minAge) } : {}),
    ...(num(d.maxAge) !== undefined ? { maxAge: num(d.maxAge) } : {}),
    ...(d.verified ? { verified: true } : {}),
  };
}

/** The props arrive packed as one JSON string (src/shared/island-props.ts): a page of cards is most of them. */
export default function MemberSearch({ data }: { data: PackedProps<MemberSearchProps> }) {
  const props = useMemo(() => unpackProps(data), [data]);
  const t = createClientTranslator(props.messages, 'search', props.lang);
  const root = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const sheetRef = useRef<HTMLDialogElement>(null);
  const stored = useStore($search);
  const storedRegions = useStore($regions);
  // Until the effect below has run, render exactly what the server rendered (hydration).
  const [hydrated, setHydrated] = useState(false);
  const state: SearchState = stored ?? { ...props.initial, status: 'idle' };
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.initial.applied));
  const { permission, locate: located } = useStore($location);
  const regionsByCountry = storedRegions ?? props.regions;

  useEffect(() => {
    initSearch(props.initial);
    // UX-03: what the member typed or chose before the island hydrated is in the DOM only: adopt it, or
    // the next render would put the server's values back.
    const form = formRef.current;
    if (form) {
      const { country, region, minAge, maxAge } = draft;
      const typed = typedValues(form, { country, region, minAge, maxAge });
      setDraft((d) => ({
        ...d,
        ...typed,
        male: checkedIn(form, 'gender', 'male') ?? d.male,
        female: checkedIn(form, 'gender', 'female') ?? d.female,
        verified: checkedIn(form, 'verified', '1') ?? d.verified,
      }));
    }
    setHydrated(true);
    void loadRegions();
    // The query string this page shows; a popstate that keeps it (a #fragment link) is not a search.
    let shown = globalThis.location.search;
    const unlisten = $search.listen(() => (shown = globalThis.location.search));
    const onPop = () => {
      if (globalThis.location.search === shown) return;
      shown = globalThis.location.search;
      void restoreFromUrl(globalThis.location.search).then(() => {
        const s = $search.get();
        if (s) setDraft(draftOf(s.applied));
      });
    };
    globalThis.addEventListener('popstate', onPop);
    let alive = true;
    void checkLocationPermission().then((p) => {
      if (!alive) return;
      // Already allowed: preselect the region when none is chosen yet (MEM-08).
      if (p === 'granted' && !props.initial.applied.region) void locateMe();
    });
    return () => {
      alive = false;
      unlisten();
      globalThis.removeEventListener('popstate', onPop);
    };
    // Runs once per page: the props are the server's first answer.
  }, []);

  // Ready once the adopted values are rendered: a click held until now (the directive plays it again)
  // then submits what the member typed, not the server's values.
  useEffect(() => {
    if (hydrated) root.current?.dispatchEvent(new Event(ISLAND_READY_EVENT, { bubbles: true }));
  }, [hydrated]);

  /** 'Use my location': the store finds the place; the form preselects it. */
  async function locateMe() {
    const found = await locate();
    if (found) setDraft((d) => ({ ...d, country: found.country, region: String(found.region.id) }));
  }

  /** The 'Filters' button (and the empty state's action): the sheet on a phone, the form in the page otherwise. */
  const openFilters = (event: MouseEvent<HTMLAnchorElement>) => {
    const sheet = sheetRef.current;
    if (!sheet || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!globalThis.matchMedia?.(PHONE).matches) return;
    event.preventDefault();
    if (!sheet.open) sheet.showModal();
  };
  const closeFilters = () => {
    if (sheetRef.current?.open) sheetRef.current.close();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    closeFilters();
    void search(queryOf(draft)).then(() => {
      const s = $search.get();
      if (s && s.error === null) setDraft(draftOf(s.applied));
    });
  };

  const onMore = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void loadMore();
  };

  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const shownRegions = hydrated && draft.country ? regionsByCountry.filter((c) => c.code === draft.country) : regionsByCountry;
  const countryName = (code: string) => props.countries.find((c) => c.code === code)?.name ?? code;
  const busy = state.status !== 'idle';
  const lastWidening = state.similar?.widened[state.similar.widened.length - 1];
  const filterCount = activeFilters(state.applied, { min: props.minAge, max: props.maxAge });

  return (
    <div ref={root} className="member-search" data-member-search data-search-status={state.status}>
      <div className="search-toolbar">
        <a className="btn btn-outline-primary search-filters-open" href="#search-filters" aria-haspopup="dialog" aria-controls="search-filters" onClick={openFilters} data-filters-open>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M3 5h18v2H3zm3 6h12v2H6zm4 6h4v2h-4z" />
          </svg>
          {t('filters_open')}
          {filterCount > 0 && (
            <span className="search-filters-count" aria-hidden="true" data-filters-count>
              {filterCount}
            </span>
          )}
          {filterCount > 0 && <span className="visually-hidden">({t('filters_active', { count: filterCount })})</span>}
        </a>
      </div>
      <dialog
        ref={sheetRef}
        id="search-filters"
        className="sheet search-sheet"
        aria-labelledby="search-filters-title"
        onClick={(e) => e.target === e.currentTarget && closeFilters()}
        data-filter-sheet
      >
        <div className="sheet-handle" aria-hidden="true" />
        <div className="sheet-header">
          <h2 className="sheet-title" id="search-filters-title">
            {t('filters')}
          </h2>
          <button type="button" className="sheet-close" aria-label={t('close')} onClick={closeFilters} data-filters-close>
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path fill="currentColor" d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z" />
            </svg>
          </button>
        </div>
        <form ref={formRef} method="get" action="/members" className="search-form search-sheet-body" aria-label={t('filters')} onSubmit={onSubmit} noValidate={hydrated}>
          <div className="row g-2 align-items-end">
            <fieldset className="col-12 col-lg-3">
              <legend className="form-label fs-6 mb-1">{t('looking_for')}</legend>
              <div className="form-check form-check-inline">
                <input
                  className="form-check-input"
                  type="checkbox"
                  id="search-gender-female"
                  name="gender"
                  value="female"
                  checked={draft.female}
                  onChange={(e) => set({ female: e.currentTarget.checked })}
                />
                <label className="form-check-label" htmlFor="search-gender-female">
                  {t('women')}
                </label>
              </div>
              <div className="form-check form-check-inline">
                <input className="form-check-input" type="checkbox" id="search-gender-male" name="gender" value="male" checked={draft.male} onChange={(e) => set({ male: e.currentTarget.checked })} />
                <label className="form-check-label" htmlFor="search-gender-male">
                  {t('men')}
                </label>
              </div>
            </fieldset>
            <div className="col-6 col-lg-2">
              <label className="form-label mb-1" htmlFor="search-country">
                {t('country')}
              </label>
              <select className="form-select" id="search-country" name="country" value={draft.country} onChange={(e) => set({ country: e.currentTarget.value, region: '' })}>
                <option value="">{t('any_country')}</option>
                {props.countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-6 col-lg-3">
              <label className="form-label mb-1" htmlFor="search-region">
                {t('region')}
              </label>
              <select className="form-select" id="search-region" name="region" value={draft.region} onChange={(e) => set({ region: e.currentTarget.value })}>
                <option value="">{t('any_region')}</option>
                {shownRegions.map((c) => (
                  <optgroup key={c.code} label={countryName(c.code)}>
                    {c.regions.map((r) => (
                      <option key={r.id} value={String(r.id)}>
                        {r.name}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
            <div className="col-6 col-lg-2">
              <label className="form-label mb-1" htmlFor="search-min-age">
                {t('min_age')}
              </label>
              <input
                className="form-control"
                type="number"
                inputMode="numeric"
                id="search-min-age"
                name="minAge"
                min={props.minAge}
                max={props.maxAge}
                value={draft.minAge}
                onChange={(e) => set({ minAge: e.currentTarget.value })}
              />
            </div>
            <div className="col-6 col-lg-2">
              <label className="form-label mb-1" htmlFor="search-max-age">
                {t('max_age')}
              </label>
              <input
                className="form-control"
                type="number"
                inputMode="numeric"
                id="search-max-age"
                name="maxAge"
                min={props.minAge}
                max={props.maxAge}
                value={draft.maxAge}
                onChange={(e) => set({ maxAge: e.currentTarget.value })}
              />
            </div>
            <div className="col-12 col-lg-auto">
              <div className="form-check">
                <input
                  className="form-check-input"
                  type="checkbox"
                  id="search-verified"
                  name="verified"
                  value="1"
                  checked={draft.verified}
                  onChange={(e) => set({ verified: e.currentTarget.checked })}
                  data-search-verified
                />
                <label className="form-check-label" htmlFor="search-verified">
                  {t('verified_only')}
                </label>
              </div>
            </div>
            <div className="col-12 d-grid d-lg-flex justify-content-lg-end">
              <button type="submit" className="btn btn-primary" data-search-submit disabled={state.status === 'loading'}>
                {t('submit')}
              </button>
            </div>
          </div>
          {hydrated && (permission === 'granted' || permission === 'unknown') && (
            <div className="mt-2">
              <button type="button" className="btn btn-link btn-sm p-0" data-locate disabled={located.type === 'busy'} onClick={() => void locateMe()}>
                {located.type === 'busy' ? t('locating') : t('locate')}
              </button>
            </div>
          )}
          <p className="small text-body-secondary mb-0 mt-1" role="status" aria-live="polite" data-locate-status>
            {permission === 'denied'
              ? t('locate_denied')
              : located.type === 'done'
                ? t('located', { region: located.region })
                : located.type === 'failed'
                  ? t('locate_failed')
                  : located.type === 'none'
                    ? t('locate_none')
                    : ''}
          </p>
        </form>
      </dialog>

      {state.error !== null && (
        <div className="alert alert-danger" role="alert" data-search-error={state.error}>
          {state.error === 'network' || state.error === 'unknown' || state.error === 'internal_error' ? (
            t('failed')
          ) : (
            <>
              <strong className="d-block">{t('bad_filters')}</strong>
              {t(`errors:${state.error}`)}
            </>
          )}
        </div>
      )}

      <section aria-labelledby="search-results-title" aria-busy={busy}>
        <h2 id="search-results-title" className="visually-hidden">
          {t('results')}
        </h2>
        {state.cards.length === 0 && state.error === null && state.status === 'idle' ? (
          <div className="empty-state" data-search-none>
            <svg className="empty-state-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path fill="currentColor" d="M10.5 3a7.5 7.5 0 0 1 5.96 12.05l4.25 4.24-1.42 1.42-4.24-4.25A7.5 7.5 0 1 1 10.5 3zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z" />
            </svg>
            <h3 className="empty-state-title">{t('none_title')}</h3>
            <p>{t('none')}</p>
            <a className="btn btn-primary" href="#search-filters" onClick={openFilters} data-filters-open>
              {t('change_filters')}
            </a>
          </div>
        ) : (
          <ul className="member-grid" role="list" data-member-grid>
            {state.cards.map((member, i) => (
              <MemberCardItem key={member.id} member={member} settings={props.card} eager={i < 2} t={t} />
            ))}
            {state.status === 'loading_more' && Array.from({ length: SKELETONS }, (_, i) => <MemberCardSkeleton key={`skeleton-${i}`} />)}
          </ul>
        )}
        {state.similar && state.similar.cards.length > 0 && (
          <>
            <p className="alert alert-info mt-3" data-similar={state.similar.widened.join(' ')}>
              {t(`similar_${lastWidening}`)}
            </p>
            <ul className="member-grid" role="list" data-similar-grid>
              {state.similar.cards.map((member) => (
                <MemberCardItem key={member.id} member={member} settings={props.card} eager={false} t={t} />
              ))}
            </ul>
          </>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {busy ? t('loading') : ''}
        </p>
        <div className="search-more">
          {state.next !== null && (
            <a
              className={`btn btn-outline-primary${state.status === 'loading_more' ? ' disabled' : ''}`}
              href={searchUrl(state.applied, state.next)}
              rel="next"
              data-load-more
              onClick={onMore}
              aria-disabled={state.status === 'loading_more' ? 'true' : undefined}
            >
              {state.status === 'loading_more' ? t('loading') : t('more')}
            </a>
          )}
          {props.laterPage && state.query === props.initial.query && (
            <a className="btn btn-link" href={searchUrl(state.query)} data-first-page>
              {t('first_page')}
            </a>
          )}
        </div>
      </section>
    </div>
  );
}
