/** A function that replaces every secret it knows in a text by `[redacted]`. */
export type Redact = (text: string) => string;

const REDACTED = '[redacted]';

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

/**
 * A parsed JSON value with every string in it, names of fields included, passed through `redact`: for what a
 * service sends back, which is drawn, saved and published (a service that quotes the key in the outfit, an alert or
 * a field of its own must not put the key on the wall). Returns the value itself when nothing changed.
 */
export function redactJson<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) {
    const out = value.map((v: unknown) => redactJson(v, redact));
    return (out.some((v, i) => v !== value[i]) ? out : value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = redact(k);
    const next = redactJson(v, redact);
    if (key !== k || next !== v) changed = true;
    out[key] = next;
  }
  return (changed ? out : value) as T;
}

/**
 * A redactor that learns more secrets as it goes, for what outlives one config: the logger, which is made before a
 * SIGHUP reload brings a new key or the Home Assistant Supervisor hands out its broker's password. It forgets none:
 * a key rotated away is still a secret.
 */
export class LearningRedactor {
  readonly #known = new Set<string>();
  /** Each secret as it is written inside a JSON string (a quote or a backslash escaped), where that differs. */
  readonly #escaped = new Set<string>();
  #redact: Redact = (text) => text;

  constructor(secrets: Iterable<string | null | undefined> = []) {
    this.learn(secrets);
  }

  learn(secrets: Iterable<string | null | undefined>): void {
    const before = this.#known.size;
    for (const s of secrets) {
      if (typeof s !== 'string' || s.length === 0 || this.#known.has(s)) continue;
      this.#known.add(s);
      const escaped = JSON.stringify(s).slice(1, -1);
      if (escaped !== s) this.#escaped.add(escaped);
    }
    if (this.#known.size !== before) this.#redact = redactor(this.#known);
  }

  /** Whether `text` may hold a secret, as it is or JSON-escaped: a quick test before the work of redacting. */
  mayHold(text: string): boolean {
    for (const s of this.#known) if (text.includes(s)) return true;
    for (const s of this.#escaped) if (text.includes(s)) return true;
    return false;
  }

  readonly redact: Redact = (text) => this.#redact(text);
}
