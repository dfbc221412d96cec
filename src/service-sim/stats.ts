import type { BillingMode } from './billing.js';
import type { Fault, FaultKind } from './faults.js';

/** What the simulated service saw: one record a request, keys by fingerprint only. */

export interface SimRequestRecord {
  /** Arrival time, ms since epoch (the injected clock). */
  time: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Fingerprint of the key presented (see keyFingerprint), null when none was presented; never the key. */
  keyFingerprint: string | null;
  /** Status answered; null when no answer went out (a `reset` fault, or the client went away). */
  status: number | null;
  /** Credits billed for this request (see billing.ts: it may be billed with no answer delivered). */
  creditsCharged: number;
  /** The fault applied to this request, if any. */
  fault?: FaultKind;
  /** The `gender` a paid request asked with, once it was read (what makes two purchases for one place differ). */
  gender?: string;
}

export interface SimStats {
  /** How the service bills (billing.ts). */
  billing: BillingMode;
  /** Credits billed since the start, in all: unlike `requests`, never trimmed, and not changed by setCredits. */
  creditsBilled: number;
  /** Credits billed since the start, by key fingerprint. */
  creditsBilledByKey: Record<string, number>;
  requests: SimRequestRecord[];
  /** Credits left, by key fingerprint. */
  creditsLeft: Record<string, number>;
  /** Fingerprints of revoked keys. */
  revoked: string[];
  /** Faults still queued, with how many applications each has left. */
  pendingFaults: Array<Fault & { remaining: number }>;
}

/** Keeps the newest `max` records, so a long-running demo does not grow without bound. */
export class RequestLog {
  private records: SimRequestRecord[] = [];
  private readonly billed = new Map<string, number>();

  constructor(private readonly max = 10_000) {}

  add(record: SimRequestRecord): void {
    if (record.creditsCharged > 0 && record.keyFingerprint !== null) {
      this.billed.set(record.keyFingerprint, (this.billed.get(record.keyFingerprint) ?? 0) + record.creditsCharged);
    }
    this.records.push(record);
    if (this.records.length > this.max) this.records.splice(0, this.records.length - this.max);
  }

  list(): SimRequestRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  /** Credits billed since the start, by key fingerprint. */
  billedByKey(): Record<string, number> {
    return Object.fromEntries(this.billed);
  }
}
