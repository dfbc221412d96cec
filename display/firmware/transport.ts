/**
 * How a simulated device gets its picture: plain HTTP with ETag, the TRMNL protocol, or a retained MQTT message.
 * A transport never throws for a network or server problem: it returns the error the firmware would log.
 */

/**
 * `panel`: the glass of a panel on the daemon's own header, from its capture file (transport-panel.ts); `esphome`:
 * an ESPHome device with our YAML (transport-esphome.ts).
 */
export type Via = 'http' | 'trmnl' | 'mqtt' | 'panel' | 'esphome';

/** What the device knows about itself when it wakes (sent as headers by the TRMNL firmware). */
export interface WakeInfo {
  batteryVolts: number;
  rssi: number;
  /** The refresh interval the device runs on, seconds. */
  refreshRateS: number;
  fwVersion: string;
  model: string;
  width: number;
  height: number;
  /** 0–100: what the fuel gauge says (a TRMNL X's `Percent-Charged`, a Kindle's `batteryLevel`). */
  batteryPct: number;
  /** Why the device woke (`Update-Source`): a press of its button, or its timer. */
  wakeReason: 'timer' | 'button';
  /** What the 2026 firmware adds; null for a device that does not send it (older firmware, a Kindle). */
  extra: FirmwareExtras | null;
}

/** The headers the 2026 firmware adds to `/api/display` (../shared/facts/trmnl-protocol.md). */
export interface FirmwareExtras {
  /** Send `Percent-Charged` (TRMNL X boards only: they have a fuel gauge). */
  percentCharged: boolean;
  /** `Battery-Charging` ("1"/"0"). */
  charging: boolean;
  /** `USB-Connected` ("true"/"false"). */
  usbConnected: boolean;
  /** `SENSORS` in the firmware's format, or null without a sensor. */
  sensors: string | null;
}

export type FetchOutcome =
  | {
      kind: 'image';
      bytes: Buffer;
      /** The Content-Type header; null where there is none (MQTT): the bytes are sniffed. */
      contentType: string | null;
      /** The TRMNL filename, when there is one. */
      filename: string | null;
      /** False when it came from the device's own cache (a known TRMNL filename): no download. */
      downloaded: boolean;
      refreshRateS: number | null;
      /** `maximum_compatibility: true`: the server asks for a full refresh of this image. */
      fullRefresh?: boolean;
      note: string;
    }
  /** The server says the device already has it (304, or the same retained image). */
  | { kind: 'unchanged'; refreshRateS: number | null; note: string }
  /** Nothing to show yet (no frame, not registered yet). */
  | { kind: 'nothing'; refreshRateS: number | null; note: string }
  | { kind: 'error'; code: string; message: string; refreshRateS: number | null };

/** A line of the device's own log, sent to the server on a later wake where the protocol has a place for it. */
export interface DeviceLogEntry {
  message: string;
  level: 'info' | 'warn' | 'error';
  created_at: number;
  battery_voltage: number;
  wifi_signal: number;
  refresh_rate: number;
  firmware_version: string;
  wake_reason: string;
}

export interface Transport {
  readonly via: Via;
  fetch(info: WakeInfo): Promise<FetchOutcome>;
  /** The device refused the image it was given (a TRMNL device deletes it from its cache). */
  refused?(filename: string | null): void;
  log?(entry: DeviceLogEntry): void;
  close(): Promise<void>;
}

/** fetch() for transports, injectable. */
export type FetchFn = typeof fetch;

/** A network failure as the firmware names it. */
export function networkError(err: unknown, refreshRateS: number | null = null): FetchOutcome {
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  const timedOut = (err as Error).name === 'TimeoutError' || cause === 'UND_ERR_HEADERS_TIMEOUT';
  return {
    kind: 'error',
    code: timedOut ? 'HTTPS_TIMED_OUT' : 'HTTPS_UNABLE_TO_CONNECT',
    message: `${timedOut ? 'timed out' : 'unable to connect'}${cause ? ` (${cause})` : ''}`,
    refreshRateS,
  };
}

/** A header value as a positive number of seconds, or null. */
export function seconds(v: string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}
