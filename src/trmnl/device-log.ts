/**
 * The entries of a device's `POST /api/log`: the current firmware's `{"logs":[…]}` and the older
 * `{"log":{"logs_array":[…]}}`, reduced to the fields we know, each string cut short, so that nothing a device sends
 * reaches our log unbounded.
 */

export function logEntries(body: unknown): unknown[] | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { logs?: unknown; log?: { logs_array?: unknown } };
  if (Array.isArray(b.logs)) return b.logs as unknown[];
  if (typeof b.log === 'object' && b.log !== null && Array.isArray(b.log.logs_array)) return b.log.logs_array as unknown[];
  return null;
}

const LOG_FIELDS = [
  'message', 'level', 'created_at', 'battery_voltage', 'wifi_signal', 'wifi_status', 'refresh_rate', 'sleep_duration',
  'firmware_version', 'wake_reason', 'free_heap_size', 'special_function', 'source_path', 'source_line', 'retry',
] as const;

/** The known fields of a device log entry, strings cut to 500 characters: nothing else reaches our log. */
export function pickLogFields(entry: unknown): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (typeof entry !== 'object' || entry === null) return out;
  for (const k of LOG_FIELDS) {
    const v = (entry as Record<string, unknown>)[k];
    if (typeof v === 'string') out[k] = v.slice(0, 500);
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}
