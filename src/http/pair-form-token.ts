import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { WarningCode } from '../shared/codes.js';
import type { Clock } from '../time/clock.js';

/**
 * The token in the status page's pairing form (`POST /trmnl/<MAC>/pair`). Opening pairing hands a device's access
 * token to the next setup request from that MAC, and a MAC is no secret: a bare POST from anyone on the network (no
 * Origin header, so the same-origin check lets it pass) must not open it. The page carries, per device, an HMAC of
 * the MAC and the time the page was made, keyed with a secret drawn at each start; the POST must send it back
 * within TTL. So only a client that loaded this server's own page (since its last start) can open pairing, and a
 * token copied from an old page or another server's stops working.
 */

/** How long a page's pairing button works after the page was made (the page itself reloads every minute). */
const PAIR_FORM_TOKEN_TTL_MS = 60 * 60_000;
/** The form field the token travels in. */
export const PAIR_FORM_FIELD = 'token';
/** A pairing POST that was refused: no token, a wrong or an expired one, or from another site's page (403). */
export const W_HTTP_PAIR_REFUSED = 'W_HTTP_PAIR_REFUSED' satisfies WarningCode;

export type PairTokenCheck = { ok: true } | { ok: false; reason: 'missing' | 'wrong' | 'expired' };

export interface PairFormTokensOptions {
  /** When a page was made, and whether its token is still young enough. */
  clock: Pick<Clock, 'now'>;
  /** The key; default 32 random bytes (new at every start, so tokens die with the process). Tests may fix it. */
  secret?: Buffer;
  /** Default PAIR_FORM_TOKEN_TTL_MS. */
  ttlMs?: number;
}

/** `<issued ms, base 36>.<HMAC-SHA256 of "pair|<MAC>|<issued>", base64url>`: no secret in it, only proof of the page. */
export class PairFormTokens {
  readonly #secret: Buffer;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #ttl: number;

  constructor(opts: PairFormTokensOptions) {
    this.#secret = opts.secret ?? randomBytes(32);
    this.#clock = opts.clock;
    this.#ttl = opts.ttlMs ?? PAIR_FORM_TOKEN_TTL_MS;
  }

  /** The token of `mac` (upper case, `:`) for a page made now. */
  issue(mac: string): string {
    const issued = Math.max(0, Math.floor(this.#clock.now())).toString(36);
    return `${issued}.${this.#mac(mac, issued).toString('base64url')}`;
  }

  /** Whether `token` is one this server issued for `mac`, within its TTL. Constant time in the MAC's comparison. */
  check(mac: string, token: string | null): PairTokenCheck {
    if (token === null || token === '') return { ok: false, reason: 'missing' };
    const m = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (m === null) return { ok: false, reason: 'wrong' };
    const expected = this.#mac(mac, m[1]!);
    const given = Buffer.from(m[2]!, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'wrong' };
    const age = this.#clock.now() - parseInt(m[1]!, 36);
    // A page from the future (the clock was set back since) is as unusable as an old one: reloading it gives a new one.
    return age >= 0 && age <= this.#ttl ? { ok: true } : { ok: false, reason: 'expired' };
  }

  #mac(mac: string, issued: string): Buffer {
    return createHmac('sha256', this.#secret).update(`pair|${mac}|${issued}`).digest();
  }
}
