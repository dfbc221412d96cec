import { timeOrNull } from '../time/zoned-time.js';
import type { FirmwareOfferRow } from '../trmnl/firmware-offers.js';
import { formatWhen } from './status-page-model.js';

const TIMES = ['', 'once', 'twice'];

function failures(n: number): string {
  return n === 0 ? '' : `failed ${TIMES[n] ?? `${n} times`}`;
}

/** A firmware offer on the status page: `AA:BB:CC:DD:EE:01: offered 1.7.3 at 12:05 (failed once)`. */
export function firmwareLine(r: FirmwareOfferRow, tz: string, now: number): string {
  const when = formatWhen(new Date(r.at), tz, now) ?? '—';
  const what =
    r.outcome === 'offered'
      ? `offered ${r.version} at ${when}`
      : r.outcome === 'succeeded'
        ? `updated to ${r.version} (seen ${when})`
        : `update to ${r.version} failed (seen ${when})`;
  // The count is of every offer to the device; after a first failure the outcome already says it.
  const f = r.outcome === 'failed' && r.failures === 1 ? '' : failures(r.failures);
  return `${r.mac}: ${what}${f === '' ? '' : `, ${f}`}`;
}

/** A firmware offer in state.json. */
export function firmwareJson(r: FirmwareOfferRow, tz: string): Record<string, unknown> {
  return {
    mac: r.mac,
    version: r.version,
    outcome: r.outcome,
    at: timeOrNull(new Date(r.at), tz),
    failures: r.failures,
  };
}
