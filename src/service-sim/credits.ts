import { createHash } from 'node:crypto';

/**
 * API keys and their credit balances, as the simulated service keeps them.
 *
 * Keys are never logged or reported: everything outside this module sees a key's fingerprint only.
 */

/** The key the demo and the tests use by default: the spec's `sk_live_` prefix, then `demo_` and 24 characters. */
export const DEMO_API_KEY = 'sk_live_demo_outfitdisplaysimulator24';

/** Endpoints the service charges for, by their path under /v1. */
export type SimEndpoint = 'recommend' | 'recweather' | 'weather';

/**
 * Credit cost per successful request: 2 for /recommend and 3 for /recweather, as the service charges;
 * GET /weather is not documented as charged: 1, the default of `budget.weather_credit_cost`.
 */
export const CREDIT_COSTS: Readonly<Record<SimEndpoint, number>> = { recommend: 2, recweather: 3, weather: 1 };

/** A stable, non-reversible short name for a key: `fp_` and the first 12 hex digits of its SHA-256. */
export function keyFingerprint(key: string): string {
  return 'fp_' + createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 12);
}

export type KeyLookup =
  | { ok: true; fingerprint: string; credits: number }
  | { ok: false; fingerprint: string; reason: 'unknown' | 'revoked' };

function checkCredits(credits: number): void {
  if (!Number.isFinite(credits) || credits < 0) {
    throw new RangeError(`credits must be a finite number >= 0, got ${credits}`);
  }
}

export class KeyStore {
  /** fingerprint → credits left. */
  private readonly balances = new Map<string, number>();
  private readonly revoked = new Set<string>();

  constructor(keys: Record<string, { credits: number }>) {
    for (const [key, { credits }] of Object.entries(keys)) this.setCredits(key, credits);
  }

  lookup(key: string): KeyLookup {
    const fingerprint = keyFingerprint(key);
    if (this.revoked.has(fingerprint)) return { ok: false, fingerprint, reason: 'revoked' };
    const credits = this.balances.get(fingerprint);
    if (credits === undefined) return { ok: false, fingerprint, reason: 'unknown' };
    return { ok: true, fingerprint, credits };
  }

  /** Sets a key's balance; a key not known yet becomes a valid key (unless it was revoked). */
  setCredits(key: string, credits: number): void {
    checkCredits(credits);
    this.balances.set(keyFingerprint(key), credits);
  }

  /** Revokes a key for good; an unknown key is remembered as revoked too. */
  revoke(key: string): void {
    this.revoked.add(keyFingerprint(key));
  }

  /** Credits left for a key fingerprint (0 when unknown). */
  creditsOf(fingerprint: string): number {
    return this.balances.get(fingerprint) ?? 0;
  }

  /** Takes `cost` credits from a key's balance; false (and nothing taken) when the balance is short. */
  charge(fingerprint: string, cost: number): boolean {
    const credits = this.balances.get(fingerprint);
    if (credits === undefined || credits < cost) return false;
    this.balances.set(fingerprint, credits - cost);
    return true;
  }

  creditsByFingerprint(): Record<string, number> {
    return Object.fromEntries(this.balances);
  }

  revokedFingerprints(): string[] {
    return [...this.revoked];
  }
}
