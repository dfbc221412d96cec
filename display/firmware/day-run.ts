import type { ErrorCode } from '../../src/shared/codes.js';
import { systemClock, type Clock } from '../../src/time/clock.js';
import { VirtualClock } from '../../src/time/virtual-clock.js';
import { addDays, dateKey, localParts, startOfDay } from '../../src/time/zoned-time.js';
import { DAY_POLICIES, dayRow, type DayPolicy, type DayReport, type DayWake } from './day-report.js';
import type { Device } from './device.js';
import type { PowerProfile } from './power.js';
import type { FetchFn } from './transport.js';

/**
 * `simulate --day`: a day measured, not worked out. A daemon of the config runs on a virtual clock (the command line
 * starts it: the simulator may not import the daemon, DayServer below is all it sees of it); two simulated devices
 * reach it over real HTTP on 127.0.0.1 and each sleeps what its answers say (or, the second, a fixed 15 minutes).
 * The clock moves to the next timer of either side only once both are idle (the devices between wakes, the daemon
 * with no tick, cycle or redraw under way), so a whole day runs in seconds and each side sees the other at the
 * virtual time it would. A cycle takes no virtual time: its frame is served from the instant of its slot.
 */

/** What the simulated devices are told of the daemon a day is measured against. */
export interface DayDaemon {
  /** The HTTP frame server's base URL (127.0.0.1, a port the OS chose). */
  baseUrl: string;
  /** The schedule the daemon runs for the display (`auto` resolved, or the densest that fits the budget). */
  schedule: string;
  /** Resolves once the daemon has no tick, cycle or redraw under way: the clock may move. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface DayServerRequest {
  /** The day's clock, at the start of the warm-up. */
  clock: VirtualClock;
  displayId: string;
  /** `--schedule`: the display's schedule for the day instead of its own. */
  schedule?: string;
  /** TRMNL devices bound to the display and paired before the day (MAC and access token). */
  trmnl: ReadonlyArray<{ mac: string; token: string }>;
  /** The owner's TRMNL binding whose format and panel the measured devices take (`--mac`; default the display's first). */
  bindingMac?: string;
}

/** Starts a daemon of the config for a measured day: the command line's (src/cli/day-server.ts). */
export type DayServer = (req: DayServerRequest) => Promise<DayDaemon>;

/** What a device of the day is built with: on the day's clock, through a fetch that counts the bytes. */
export interface DayDeviceRequest {
  policy: DayPolicy;
  baseUrl: string;
  clock: Clock;
  fetch: FetchFn;
  /** Its TRMNL MAC and token, with `via: 'trmnl'`. */
  trmnl: { mac: string; token: string } | null;
}

export interface DayRunOptions {
  server: DayServer;
  displayId: string;
  schedule?: string;
  bindingMac?: string;
  timezone: string;
  /** Any instant of the day before the one measured (the measured day is the next local date: a whole one). */
  from: number;
  via: DayReport['via'];
  /** The glass the devices show (the report's label). */
  panel: string;
  power: PowerProfile;
  /** One device of the policy: the simulator's Device with its transport (run.ts builds it as for a live run). */
  device: (r: DayDeviceRequest) => Device;
  /** Real time the two sides may stay busy without the clock moving before the day is given up (default 60 s). */
  stallMs?: number;
}

/** The measured day stopped: one side stayed busy without the virtual clock moving (E_SIM_DAY_STALLED). */
export class DayStalledError extends Error {
  readonly code = 'E_SIM_DAY_STALLED' satisfies ErrorCode;

  constructor(message: string) {
    super(message);
    this.name = 'DayStalledError';
  }
}

/** Before the day measured: the daemon's first frame and each device's first wakes, so the day starts in rhythm. */
const WARM_UP_MS = 3 * 3_600_000;
/** The TRMNL devices of the day: locally administered MACs, so none is a real board's. */
const TRMNL_DEVICES: Record<DayPolicy, { mac: string; token: string }> = {
  refresh_rate: { mac: '02:00:00:DA:00:01', token: 'measured-day-refresh-rate' },
  stock_15min: { mac: '02:00:00:DA:00:02', token: 'measured-day-stock-15min' },
};

/** A fetch that reads each answer's body whole, counts its bytes, and hands the transport an answer of the same. */
function countingFetch(counter: { bytes: number }): FetchFn {
  return async (input, init) => {
    const res = await fetch(input, init);
    const body = Buffer.from(await res.arrayBuffer());
    counter.bytes += body.length;
    const noBody = [101, 204, 205, 304].includes(res.status);
    return new Response(noBody ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

interface DayDevice {
  policy: DayPolicy;
  device: Device;
  counter: { bytes: number };
  /** The picture on the glass (its hash), to tell a new frame from the same one downloaded again. */
  shown: string | null;
  wakes: Array<DayWake & { at: number }>;
}

/** Runs the day; the daemon is stopped at the end, whatever happened. */
export async function runDay(o: DayRunOptions): Promise<DayReport> {
  const date = addDays(localParts(o.from, o.timezone), 1);
  const dayStart = startOfDay(date, o.timezone);
  const dayEnd = startOfDay(addDays(date, 1), o.timezone);
  const clock = new VirtualClock(dayStart - WARM_UP_MS);
  const trmnl = o.via === 'trmnl';
  const daemon = await o.server({
    clock,
    displayId: o.displayId,
    ...(o.schedule !== undefined && { schedule: o.schedule }),
    ...(o.bindingMac !== undefined && { bindingMac: o.bindingMac }),
    trmnl: trmnl ? DAY_POLICIES.map((p) => TRMNL_DEVICES[p]) : [],
  });
  try {
    const devices: DayDevice[] = DAY_POLICIES.map((policy) => {
      const counter = { bytes: 0 };
      const device = o.device({
        policy,
        baseUrl: daemon.baseUrl,
        clock,
        fetch: countingFetch(counter),
        trmnl: trmnl ? TRMNL_DEVICES[policy] : null,
      });
      return { policy, device, counter, shown: null, wakes: [] };
    });
    const busy = new Set<Promise<void>>();
    // A device's wake that threw (the Device never does for a network or server problem): the day ends with it.
    const failure: { err: Error | null } = { err: null };
    const wake = async (d: DayDevice): Promise<void> => {
      const at = clock.now();
      const before = d.counter.bytes;
      const r = await d.device.wake();
      const newFrame = r.error === null && r.image !== null && r.image.hash !== d.shown;
      if (newFrame) d.shown = r.image!.hash;
      d.wakes.push({ at, awakeMs: r.awake_ms, newFrame, bytes: d.counter.bytes - before });
      // Awake for the wake, then asleep for what the wire said (or the fixed interval): the next wake.
      arm(d, r.awake_ms + r.sleep_s * 1000);
    };
    const arm = (d: DayDevice, ms: number): void => {
      clock.setTimeout(() => {
        const p: Promise<void> = wake(d)
          .catch((err: unknown) => {
            failure.err ??= err instanceof Error ? err : new Error(String(err));
          })
          .finally(() => busy.delete(p));
        busy.add(p);
      }, ms);
    };
    for (const d of devices) arm(d, 0);
    const settled = async (): Promise<void> => {
      for (;;) {
        if (busy.size > 0) await Promise.allSettled([...busy]);
        else {
          await daemon.idle();
          if (busy.size === 0) return;
        }
      }
    };
    while (clock.now() < dayEnd && failure.err === null) {
      await withinRealTime(settled(), o.stallMs ?? 60_000, clock);
      if (failure.err !== null || clock.now() >= dayEnd || !clock.runNext()) break;
    }
    if (failure.err !== null) throw failure.err;
    const dayMs = dayEnd - dayStart;
    const row = (d: DayDevice) =>
      dayRow(
        d.policy,
        d.wakes.filter((w) => w.at >= dayStart && w.at < dayEnd),
        dayMs,
        o.power,
      );
    return {
      schedule: daemon.schedule,
      timezone: o.timezone,
      date: dateKey(date),
      via: o.via,
      panel: o.panel,
      capacity_mah: o.power.capacityMah,
      rows: [row(devices[0]!), row(devices[1]!)],
    };
  } finally {
    await daemon.stop();
  }
}

/** `p`, or a DayStalledError once `ms` of real time pass without it (a side that waits for something never coming). */
function withinRealTime(p: Promise<void>, ms: number, clock: Clock): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const at = new Date(clock.now()).toISOString();
    const timer = systemClock.setTimeout(
      () =>
        reject(
          new DayStalledError(
            `the measured day stopped at ${at}: the daemon or a device stayed busy for ${ms / 1000} s of real time`,
          ),
        ),
      ms,
    );
    p.then(
      () => {
        systemClock.clearTimeout(timer);
        resolve();
      },
      (err: unknown) => {
        systemClock.clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
