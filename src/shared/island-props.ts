/**
 * Props handed to an island as one JSON string. Astro serialises island props value by value into its
 * own tagged format (every string, number and object wrapped), twice per render, which for a page of
 * search results costs more than rendering them (docs/decisions/032-member-page-cost.md); a string prop
 * is copied as it is. Only for plain JSON data: no Dates, Maps or undefined-as-a-value.
 */
declare const packedType: unique symbol;

/** A JSON string that knows the type it holds. */
export type PackedProps<T> = string & { readonly [packedType]: T };

/** Characters beyond Latin-1 (U+0100 and up: '…', '€', '’', emoji halves). */
const WIDE = /[\u0100-\uffff]/g;

/**
 * The JSON of `value`, with every character beyond Latin-1 written as its `\uXXXX` escape (the same JSON
 * to any parser). V8 keeps a string whose characters all fit in one byte in one byte each; one wider
 * character ('…' in a translation, '€' in a price) makes the whole page it joins two bytes a character,
 * and encoding that page to UTF-8 costs 10–25 times as much (decision 095).
 */
export function packProps<T>(value: T): PackedProps<T> {
  const json = JSON.stringify(value);
  if (!WIDE.test(json)) return json as PackedProps<T>;
  WIDE.lastIndex = 0;
  // The escaped text is Latin-1 only, but V8 builds it two bytes a character from the wide original: a
  // round trip through a Latin-1 buffer gives it one byte a character.
  const escaped = json.replace(WIDE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return latin1(escaped) as PackedProps<T>;
}

/** The same text built anew from its character codes, which V8 stores one byte a character when all are Latin-1. */
function latin1(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 8192) {
    const codes: number[] = new Array<number>(Math.min(8192, text.length - i));
    for (let j = 0; j < codes.length; j++) codes[j] = text.charCodeAt(i + j);
    out += String.fromCharCode(...codes);
  }
  return out;
}

export function unpackProps<T>(packed: PackedProps<T>): T {
  return JSON.parse(packed) as T;
}
