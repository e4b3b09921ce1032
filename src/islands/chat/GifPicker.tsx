/**
 * Gif search for the chat (CHT-07): a labelled search field, a grid of gif buttons (alt text, arrow
 * keys move between them), 'load more'. The search and its results live in the `$gifSearch` store
 * (src/stores/gif-search.ts); an empty search shows the default selection. Choosing a gif calls `onPick(gif)`.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { GIF_QUERY_MAX } from '../../shared/api/limits';
import { $gifSearch, moreGifs, openGifSearch, searchGifs, type GifItem } from '../../stores/gif-search';
import { gridMove } from './grid';

export interface GifPickerProps {
  /** `messagesFor(lang, ['chat', 'errors'])`. */
  messages: Messages;
  onPick: (gif: GifItem) => void;
  /** Columns of the results grid (arrow-key movement follows it); 3 by default. */
  columns?: 2 | 3 | 4;
  /** Search as the member types, after this pause (ms); 0 searches only on submit. Default 350. */
  debounceMs?: number;
  /** Focus the search field when the picker appears. */
  autoFocus?: boolean;
}

export default function GifPicker({ messages, onPick, columns = 3, debounceMs = 350, autoFocus = false }: GifPickerProps) {
  const t = createClientTranslator(messages, 'chat');
  const id = useId();
  const [text, setText] = useState('');
  const state = useStore($gifSearch);
  const opened = useRef(false);
  const grid = useRef<HTMLUListElement>(null);

  // The default selection once, then a search after each typing pause.
  useEffect(() => {
    if (!opened.current) {
      opened.current = true;
      void openGifSearch();
      return;
    }
    if (debounceMs <= 0 || text.trim() === state.query.trim()) return;
    const timer = setTimeout(() => void searchGifs(text), debounceMs);
    return () => clearTimeout(timer);
  }, [text]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void searchGifs(text);
  };

  const more = () => void moreGifs();

  const onGridKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(grid.current?.querySelectorAll<HTMLButtonElement>('button[data-gif]') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const target = gridMove(index, event.key, buttons.length, columns);
    if (target === null) return;
    event.preventDefault();
    buttons[target]?.focus();
  };

  const busy = state.status !== 'idle';
  return (
    <div className="gif-picker" aria-busy={busy}>
      <form role="search" className="d-flex gap-2 mb-2" onSubmit={onSubmit}>
        <label htmlFor={`${id}-q`} className="visually-hidden">
          {t('gif_search_label')}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className="form-control"
          maxLength={GIF_QUERY_MAX}
          placeholder={t('gif_search_placeholder')}
          value={text}
          autoComplete="off"
          autoFocus={autoFocus}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn btn-outline-primary">
          {t('gif_search_button')}
        </button>
      </form>
      <p className="visually-hidden" role="status" aria-live="polite">
        {state.status === 'loading' ? t('gif_loading') : state.error ? '' : state.request > 0 && state.items.length === 0 ? t('gif_no_results') : ''}
      </p>
      {state.error && (
        <div className="alert alert-warning py-2" role="alert">
          {state.error === 'gif_search_unavailable' ? t('errors:gif_search_unavailable') : t('gif_error')}
        </div>
      )}
      {state.status !== 'loading' && !state.error && state.request > 0 && state.items.length === 0 && <p className="text-body-secondary small mb-2">{t('gif_no_results')}</p>}
      <ul ref={grid} className={`list-unstyled row row-cols-${columns} g-2 mb-2`} aria-label={t('gif_results')} onKeyDown={onGridKey}>
        {state.items.map((gif) => (
          <li key={gif.id} className="col">
            <button type="button" data-gif={gif.id} className="btn btn-light p-1 w-100" aria-label={t('gif_send', { title: gif.title || gif.id })} onClick={() => onPick(gif)}>
              <img src={gif.previewUrl} alt={gif.title || gif.id} width={gif.width} height={gif.height} loading="lazy" className="img-fluid rounded" />
            </button>
          </li>
        ))}
      </ul>
      {state.next !== null && (
        <button type="button" className="btn btn-outline-secondary btn-sm w-100" onClick={more} disabled={busy}>
          {state.status === 'loading_more' ? t('gif_loading') : t('gif_load_more')}
        </button>
      )}
    </div>
  );
}
