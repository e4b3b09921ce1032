import { numberFormat } from '../../shared/intl-formats';

/**
 * VAT on a receipt: the rate of the member's country and the VAT a gross price includes. Rates are in
 * basis points by the member's country (digital services to consumers in the EU are taxed where the
 * consumer lives, OSS); prices include VAT. Countries not listed use the Dutch rate.
 */
const VAT_BASIS_POINTS: Record<string, number> = {
  NL: 2100,
  BE: 2100,
  DE: 1900,
  AT: 2000,
  FR: 2000,
  IT: 2200,
  ES: 2100,
  PL: 2300,
  DK: 2500,
  FI: 2550,
  SE: 2500,
  LU: 1700,
  IE: 2300,
  PT: 2300,
  NO: 2500,
};

export function vatRate(country: string): number {
  return VAT_BASIS_POINTS[country.toUpperCase()] ?? 2100;
}

/** The VAT included in a gross amount: gross × rate / (1 + rate), rounded to the cent. */
export function vatIncluded(grossCents: number, basisPoints: number): number {
  return Math.round((grossCents * basisPoints) / (10_000 + basisPoints));
}

/** "21%" / "25,5%" in the language. */
export function formatRate(basisPoints: number, lang: string): string {
  return numberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(basisPoints / 10_000);
}
