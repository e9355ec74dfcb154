/** Escaping for curated text in HTML, and JSON embedded in a <script> element. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON safe inside <script type="application/json">: `<` (so no `</script`
 * or `<!--` can close or confuse the element), `>` and `&` become \u escapes,
 * and so do U+2028/9, which are line breaks to older JS parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
