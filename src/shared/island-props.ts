/**
 * Props handed to an island as one JSON string. Astro serialises island props value by value into its
 * own tagged format (every string, number and object wrapped), twice per render, which for a page of
 * search results costs more than rendering them (docs/decisions/032-member-page-cost.md); a string prop
 * is copied as it is. Only for plain JSON data: no Dates, Maps or undefined-as-a-value.
 */
declare const packedType: unique symbol;

/** A JSON string that knows the type it holds. */
export type PackedProps<T> = string & { readonly [packedType]: T };

export function packProps<T>(value: T): PackedProps<T> {
  return JSON.stringify(value) as PackedProps<T>;
}

export function unpackProps<T>(packed: PackedProps<T>): T {
  return JSON.parse(packed) as T;
}
