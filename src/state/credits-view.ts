import type { BudgetStatus } from '../budget/governor-types.js';
import { numberOrNull } from '../shared/number-or-null.js';
import { timeOrNull } from '../time/zoned-time.js';

/**
 * What the credits are doing, told apart for the owner: our own budget used up, the service's account out of
 * credits (a 402: top up in the service's dashboard), and credits counted whose charge is unknown (sent, no usable
 * answer: the service may or may not have billed them). Shared by state.json, the MQTT diagnostics and the status page.
 */
export interface CreditsView {
  /** Credits our budget counts today: charged plus unknown. */
  credits_counted_today: number | null;
  /** Of those: a 2xx arrived (billed). */
  credits_charged_today: number | null;
  /** Of those: sent without a usable answer; counted so the budget is never overspent, maybe never billed. */
  credits_unknown_today: number | null;
  credits_unknown_month: number | null;
  /** Paid requests the service refused today (given back). */
  requests_refused_today: number | null;
  /** "ok", or "out_of_credits": the service said the account cannot pay (402). */
  account: 'ok' | 'out_of_credits';
  account_out_since: string | null;
  account_next_try_at: string | null;
}

export function creditsView(b: Partial<BudgetStatus> | null, timeZone: string): CreditsView {
  const out = b?.creditsOut ?? null;
  return {
    credits_counted_today: numberOrNull(b?.spentToday),
    credits_charged_today: numberOrNull(b?.chargedToday),
    credits_unknown_today: numberOrNull(b?.unknownToday),
    credits_unknown_month: numberOrNull(b?.unknownMonth),
    requests_refused_today: numberOrNull(b?.refusedToday),
    account: out === null ? 'ok' : 'out_of_credits',
    account_out_since: timeOrNull(out?.since ?? null, timeZone),
    account_next_try_at: timeOrNull(out?.nextTryAt ?? null, timeZone),
  };
}

/** The status page's lines about the split and the account (plain text; the page escapes them). */
export function creditsLines(
  b: Partial<BudgetStatus> | null,
  formatWhen: (d: Date) => string,
): { ok: string[]; bad: string[] } {
  const ok: string[] = [];
  const bad: string[] = [];
  const unknown = numberOrNull(b?.unknownToday) ?? 0;
  const charged = numberOrNull(b?.chargedToday);
  if (charged !== null) {
    ok.push(
      `today: ${charged} credits charged${unknown > 0 ? `, ${unknown} counted whose charge is unknown (sent, no usable answer)` : ''}`,
    );
  }
  const out = b?.creditsOut ?? null;
  if (out) {
    bad.push(
      `The service account is out of credits (since ${formatWhen(new Date(out.since))}): top it up in the service's web dashboard. ` +
        `Asked again ${formatWhen(new Date(out.nextTryAt))}, or now with a refresh.`,
    );
  }
  return { ok, bad };
}
