import type { Logger } from 'pino';
import type { Clock } from '../time/clock.js';
import type { DisplayConfig } from '../config/schema.js';
import type { DisplayViewSource } from '../state/display-views.js';
import type { TrmnlDeviceBinding } from '../trmnl/trmnl-api.js';
import type { DeviceBook } from '../state/device-book.js';
import type { FirmwareOffers } from '../trmnl/firmware-offers.js';
import type { Feedback } from '../domain/warmth.js';

/**
 * What the HTTP frame server asks of the daemon: state providers and a clock, injected so that the app can be built
 * and tested without a daemon. Every provider but `displays`, `timezone`, `clock` and `views` is optional.
 */
export interface HttpDeps {
  displays: readonly DisplayConfig[];
  /** IANA zone for the times shown. */
  timezone: string;
  /** The times shown and served, and the timers of the per-minute summaries of refused requests. */
  clock: Clock;
  /** The daemon's view of every display (display-views.ts), which state.json, the status page and /healthz show. */
  views: DisplayViewSource;
  /** Configured limits, to show "12 of 200 credits". */
  budgetLimits?: { perDay: number | null; perMonth: number | null };
  /**
   * Refresh a display now, through the budget (the status page's button; POST /displays/<id>/refresh; a TRMNL
   * device's button): null or `refused` when the refresh gate or the budget said no.
   */
  refresh?: (displayId: string) => Promise<{ refused?: boolean } | null>;
  /** A warmth vote by a TRMNL device's button (its binding's `button: { action: vote }`); absent: no household. */
  vote?: (personId: string, vote: Feedback) => unknown;
  /** How long a TRMNL wake by the device's button waits for its refresh before it is answered (default 8 s). */
  pressWaitMs?: number;
  /** Why refreshing is off (no refresh reserve): the page shows this instead of a button, a POST gets 409. */
  refreshUnavailable?: string | null;
  /** TRMNL devices (from `trmnl.devices`) and their access tokens by MAC (from secrets). */
  trmnlDevices?: readonly TrmnlDeviceBinding[];
  trmnlTokens?: ReadonlyMap<string, string>;
  /** Where each pulling device's wake is recorded (TRMNL headers, a Kindle's battery query), for the status page and MQTT. */
  devices?: DeviceBook;
  /**
   * The absolute base URL devices use to reach this server (`http://192.168.1.5:8321`), for TRMNL image URLs.
   * Default: from the request's Host header.
   */
  publicUrl?: string | null;
  /** Self-hosted firmware updates for TRMNL devices (trmnl.firmware); absent: none offered, none served. */
  firmware?: FirmwareOffers;
  /** Seconds added to "time until the next update" in refresh_rate. Default 30. */
  refreshMarginS?: number;
  /** `<state_dir>/pairing.json`, written by `outfit-display pair`; absent: TRMNL pairing opens only in this process. */
  pairingFile?: string | null;
  /** Names (or addresses) a request's Host may give besides this machine's own (http.allowed_hosts). */
  allowedHosts?: readonly string[];
  /** Where Home Assistant's ingress proxy connects from (default INGRESS_PROXY_ADDRESSES in ingress.ts); tests name 127.0.0.1. */
  ingressProxies?: readonly string[];
  /** Texts that must never be shown (API key, MQTT password); TRMNL tokens are added automatically. */
  secrets?: readonly string[];
  logger?: Logger;
}
