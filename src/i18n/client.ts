/**
 * The islands' translator: a few lines over the messages a page hands an island (`messagesFor`), with
 * i18next's `{{name}}` interpolation. Islands stay small because i18next itself stays on the server.
 */
export type Messages = Record<string, Record<string, unknown>>;
export type ClientTranslate = (key: string, values?: Record<string, string | number>) => string;

/** `t('nav:messages')` or `t('messages')` with a default namespace. */
export function createClientTranslator(messages: Messages, defaultNs = 'common'): ClientTranslate {
  return (key, values) => {
    const [ns, path] = key.includes(':') ? (key.split(':', 2) as [string, string]) : [defaultNs, key];
    let node: unknown = messages[ns];
    for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    if (typeof node !== 'string') return key;
    return values ? node.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in values ? String(values[name]) : m)) : node;
  };
}
