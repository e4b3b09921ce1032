/**
 * The islands' translator: a few lines over the messages a page hands an island (`messagesFor`), with
 * i18next's `{{name}}` interpolation and its plural keys (UX-05): a call with a numeric `count` takes
 * `key_<category>` for the language's plural rules (Intl.PluralRules: `one`, `few`, `many`, `other`…),
 * falling back to `key_other`, then `key`. Islands stay small because i18next itself stays on the server.
 */
export type Messages = Record<string, Record<string, unknown>>;
export type ClientTranslate = (key: string, values?: Record<string, string | number>) => string;

function at(node: unknown, path: readonly string[]): unknown {
  for (const part of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

/**
 * `t('nav:messages')` or `t('messages')` with a default namespace. `lang` is the page's language: an
 * island that shows counted texts must give it, so Polish counts by Polish rules (2 kredyty, 5 kredytów).
 */
export function createClientTranslator(messages: Messages, defaultNs = 'common', lang = 'en'): ClientTranslate {
  let rules: Intl.PluralRules | undefined;
  return (key, values) => {
    const [ns, path] = key.includes(':') ? (key.split(':', 2) as [string, string]) : [defaultNs, key];
    const parts = path.split('.');
    const parent = at(messages[ns], parts.slice(0, -1));
    const last = parts[parts.length - 1]!;
    let node: unknown;
    if (typeof values?.count === 'number') {
      rules ??= new Intl.PluralRules(lang);
      node = at(parent, [`${last}_${rules.select(values.count)}`]) ?? at(parent, [`${last}_other`]);
    }
    if (typeof node !== 'string') node = at(parent, [last]);
    if (typeof node !== 'string') return key;
    return values ? node.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in values ? String(values[name]) : m)) : node;
  };
}
