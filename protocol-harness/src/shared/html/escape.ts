// Everything a report puts into its HTML goes through here: text and attribute values escaped,
// data for the charts as JSON that cannot end its <script> element early.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value (quoted with "), from any value: a server's error string included. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * JSON for a <script type="application/json"> element: "<" written as \u003c so no "</script>"
 * or "<!--" inside a string can close or change the element; U+2028/9 likewise escaped.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Code inlined into a <script> (the charting library): "</script" cannot end the element early. */
export function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1');
}

/** A style sheet inlined into a <style>: "</style" cannot end the element early. */
export function inlineStyle(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}
