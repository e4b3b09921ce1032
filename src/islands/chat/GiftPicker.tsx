/**
 * The gift picker of the chat (GFT-01): a grid of gift buttons, each with its image, its name and the
 * site's gift cost in credits. The catalogue comes as a prop (the page renders it from `listGifts`) or,
 * without one, from the `$giftCatalogue` store (`GET /api/gifts.php`). Choosing a gift calls `onPick(gift, cost)`; charging it is the
 * chat's job.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { createClientTranslator, type Messages } from '../../i18n/client';
import { $giftCatalogue, openGiftCatalogue, type Gift, type GiftCatalogue } from '../../stores/gif-search';
import { gridMove } from './grid';

export interface GiftPickerProps {
  /** `messagesFor(lang, ['chat', 'errors'])`. */
  messages: Messages;
  onPick: (gift: Gift, cost: number) => void;
  /** The catalogue and cost when the page has them; otherwise the picker loads `/api/gifts.php`. */
  catalogue?: GiftCatalogue;
  /** Columns of the grid (arrow keys follow it); 3 by default. */
  columns?: 2 | 3 | 4 | 5;
  /** Disable every button (a send in progress, too few credits). */
  disabled?: boolean;
  /** The page's language: the costs count credits by its plural rules (UX-05). */
  lang?: string;
  /** Inside a sheet whose header already names it: no heading of its own. */
  bare?: boolean;
}

export default function GiftPicker({ messages, onPick, catalogue, columns = 3, disabled = false, lang, bare = false }: GiftPickerProps) {
  const t = createClientTranslator(messages, 'chat', lang);
  const loaded = useStore($giftCatalogue);
  const grid = useRef<HTMLUListElement>(null);
  const current = catalogue ?? loaded.catalogue;
  const failed = loaded.failed;

  useEffect(() => {
    if (!catalogue) void openGiftCatalogue();
  }, [catalogue]);

  const onGridKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(grid.current?.querySelectorAll<HTMLButtonElement>('button[data-gift]') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const target = index < 0 ? null : gridMove(index, event.key, buttons.length, columns);
    if (target === null) return;
    event.preventDefault();
    buttons[target]?.focus();
  };

  if (!current) {
    return failed ? (
      <div className="alert alert-warning py-2" role="alert">
        {t('gif_error')}
      </div>
    ) : (
      <p role="status" className="text-body-secondary small">
        {t('gif_loading')}
      </p>
    );
  }
  return (
    <section className="gift-picker" {...(bare ? { 'aria-label': t('gifts_title') } : { 'aria-labelledby': 'gift-picker-title' })}>
      {!bare && (
        <h2 id="gift-picker-title" className="h6">
          {t('gifts_title')}
        </h2>
      )}
      <ul ref={grid} className={`list-unstyled row row-cols-${columns} g-2 mb-0`} onKeyDown={onGridKey}>
        {current.gifts.map((gift) => (
          <li key={gift.id} className="col">
            <button
              type="button"
              data-gift={gift.id}
              className="btn btn-light w-100 h-100 d-flex flex-column align-items-center p-2"
              aria-label={t('gift_send', { name: gift.name, count: current.cost })}
              disabled={disabled}
              onClick={() => onPick(gift, current.cost)}
            >
              <img src={gift.image} alt="" width={56} height={56} />
              <span className="small fw-semibold mt-1">{gift.name}</span>
              <span className="small text-body-secondary">{t('gift_cost', { count: current.cost })}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
