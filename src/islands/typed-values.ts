/**
 * UX-03: nothing a member types or taps before an island hydrates is lost. An island's form is
 * server-rendered and usable at once; the member may type into it while the island's code is still on
 * its way. React's hydration leaves those values in the DOM, but a controlled input is reset to the
 * island's state on its next render (the search filters' '25' became '185'). So an island with inputs
 * adopts, right after hydrating, what its form's controls hold: {@link typedValues} reads them.
 */

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The form's control named `name` (the first, for a group), or null. */
function controlOf(form: HTMLFormElement, name: string): Control | null {
  const found = form.elements.namedItem(name);
  const el = found instanceof RadioNodeList ? found[0] : found;
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? el : null;
}

/** Whether the checkbox (or radio) named `name` with value `value` is checked; undefined when there is none. */
export function checkedIn(form: HTMLFormElement, name: string, value: string): boolean | undefined {
  const box = form.querySelector<HTMLInputElement>(`input[name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
  return box ? box.checked : undefined;
}

/**
 * The values of `form`'s controls named like the keys of `values` (strings: text, number, date, select,
 * textarea), where they differ from `values`: what was typed or chosen before hydration. Empty when the
 * form is missing or nothing changed.
 */
export function typedValues<K extends string>(form: HTMLFormElement | null, values: Readonly<Record<K, string>>): Partial<Record<K, string>> {
  const typed: Partial<Record<K, string>> = {};
  if (!form) return typed;
  for (const key of Object.keys(values) as K[]) {
    const el = controlOf(form, key);
    if (el && el.value !== values[key]) typed[key] = el.value;
  }
  return typed;
}
