/**
 * Every `Intl.DateTimeFormat` is made here, once per locale, zone and options: building one costs far more than
 * formatting with it, and the daemon formats the same few on every cycle, page and MQTT message.
 */

const cache = new Map<string, Intl.DateTimeFormat>();

/** The cached `new Intl.DateTimeFormat(locale, options)`; `options.timeZone` is part of the key like the rest. */
export function zonedFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\n${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}
