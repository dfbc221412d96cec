import type { Config, DisplayConfig } from '../config/schema.js';
import { purchaseKey } from './purchase-pool.js';

/**
 * What a slot of each display buys, for the plan (docs/guides/household.md, "Who is bought for, and what it costs"):
 * a display of one outfit one answer; a household display one per distinct request of its people (people of one
 * gender at one place share one); and household displays that tick together (the same schedule) share the requests
 * they have in common, as the purchase pool (purchase-pool.ts) shares them when the daemon runs. The plan is the worst
 * case for presence: everyone at home (quiet hours are counted by the planner: no purchase in them).
 */

/** One display's share of the purchases. */
export interface DisplayPurchases {
  /** A household display's people (ids), or null for a display of one outfit. */
  people: string[] | null;
  /** Distinct requests a slot of the display asks for (1 for a display of one outfit). */
  requests: number;
  /** Of those, the ones this display buys: the rest are bought by an earlier display on the same schedule. */
  purchases: number;
  /** The displays whose purchases this one shares (config order), none when it shares nothing. */
  sharesWith: string[];
}

/** The distinct requests of a household display's people (its place, unit and endpoint; each one's gender). */
function requestKeys(d: DisplayConfig, config: Config): string[] {
  const people = (d.people ?? []).flatMap((id) => config.people.filter((p) => p.id === id));
  const keys = people.map((p) =>
    purchaseKey({ lat: d.lat, lon: d.lon, unit: d.unit, gender: p.gender, endpoint: d.endpoint }),
  );
  return [...new Set(keys)];
}

/** Distinct requests a slot of `d` asks for, shared with no other display: what a schedule of its own costs. */
export function requestsPerSlot(d: DisplayConfig, config: Config): number {
  return d.people === undefined ? 1 : requestKeys(d, config).length;
}

/**
 * Each display's purchases a slot, with `schedules` (display id → the cron expression it runs): a request of a
 * household display is bought by the first household display, in config order, that asks for it on the same schedule.
 */
export function purchasesOf(config: Config, schedules: ReadonlyMap<string, string>): Map<string, DisplayPurchases> {
  const owner = new Map<string, string>();
  const out = new Map<string, DisplayPurchases>();
  for (const d of config.displays) {
    if (d.people === undefined) {
      out.set(d.id, { people: null, requests: 1, purchases: 1, sharesWith: [] });
      continue;
    }
    const expr = schedules.get(d.id) ?? d.schedule;
    const keys = requestKeys(d, config);
    const sharesWith = new Set<string>();
    let purchases = 0;
    for (const key of keys) {
      const slotKey = `${expr}\n${key}`;
      const first = owner.get(slotKey);
      if (first === undefined) {
        owner.set(slotKey, d.id);
        purchases++;
      } else sharesWith.add(first);
    }
    out.set(d.id, { people: [...d.people], requests: keys.length, purchases, sharesWith: [...sharesWith] });
  }
  return out;
}
