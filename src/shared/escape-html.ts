/**
 * Text for an HTML page: every character that can open a tag, an attribute or a template literal becomes a numeric
 * reference (the backtick too, which old browsers took as an attribute quote).
 */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}
