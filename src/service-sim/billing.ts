/**
 * How the simulated service bills, so tests can play against a service that charges for more than a good answer.
 * The spec does not say which requests are billed; a real service may well bill every answer it produced, even one
 * whose body then broke or that the client had stopped waiting for.
 *
 * What happened to a request, for billing:
 * - `refused`: turned away before any work: no valid key (401), unknown path or method (404, 405), the rate window
 *   full (429 from the limiter), too few credits (402). Never billed.
 * - `answered`: a valid key on an endpoint, answered with something other than a success body: an injected
 *   `status`, `rate_limit`, `html_error` or `reset` fault, or a request the service rejected (400, 413, 415).
 * - `produced_200`: a success body was produced but did not arrive as it was: a body fault (`malformed_json`,
 *   `missing_field`, `wrong_type`, `extra_fields`), or a `slow` answer (billed even when the client went away).
 * - `good_200`: a success body sent as it was, with no fault.
 */

export const BILLING_MODES = ['success', 'every-200', 'every-request'] as const;

/**
 * - `success` (the default): only `good_200`; a faulted request is never billed.
 * - `every-200`: `good_200` and `produced_200`: every success body the service produced.
 * - `every-request`: `good_200`, `produced_200` and `answered`: every request with a valid key that reached an
 *   endpoint, whatever the answer.
 * A request is billed only when the key's balance covers its cost: the balance never goes below zero.
 */
export type BillingMode = (typeof BILLING_MODES)[number];

export type BillingOutcome = 'answered' | 'produced_200' | 'good_200';

export function isBilled(mode: BillingMode, outcome: BillingOutcome): boolean {
  switch (mode) {
    case 'success':
      return outcome === 'good_200';
    case 'every-200':
      return outcome !== 'answered';
    case 'every-request':
      return true;
  }
}

/** A billing mode from text (a flag, a control request); throws a RangeError naming the modes. */
export function parseBillingMode(value: unknown): BillingMode {
  const found = BILLING_MODES.find((m) => m === value);
  if (found === undefined) {
    throw new RangeError(
      `billing must be one of ${BILLING_MODES.join(', ')} (got ${JSON.stringify(value) ?? 'nothing'})`,
    );
  }
  return found;
}

export function isBillingMode(value: unknown): value is BillingMode {
  return BILLING_MODES.some((m) => m === value);
}
