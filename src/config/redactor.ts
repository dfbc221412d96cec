/** A function that replaces every secret it knows in a text by `[redacted]`. */
export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/**
 * The one redactor: every place that shows a text that might quote a secret (the status page, errors, logs, MQTT
 * error lines, an API error body quoting the key back) passes it through one of these. Longer secrets go first,
 * so a secret that contains another is redacted whole. Empty and missing ones are skipped.
 */
export function redactor(secrets: Iterable<string | null | undefined>): Redact {
  const list = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  if (list.length === 0) return (text) => text;
  return (text) => list.reduce((t, s) => t.replaceAll(s, REDACTED), text);
}
