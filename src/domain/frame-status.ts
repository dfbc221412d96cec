/**
 * What a display's frame says about its answer: the status every publisher shows and the frame draws. A domain
 * type: the cycle sets it, render draws it, the state payloads and the status page describe it.
 */

export type FrameStatus =
  | { kind: 'ok' }
  | { kind: 'stale'; since: Date }
  | { kind: 'key_rejected'; message: string }
  /** Our own budget is used up; `unknownCredits` of what it counts were sent without a usable answer (charge unknown). */
  | { kind: 'budget_exhausted'; until: Date; unknownCredits?: number }
  /** The service's account is out of credits (402): not our budget. Asked again at `until`, or at once on refresh. */
  | { kind: 'credits_out'; since: Date; until: Date }
  /** No connection to the service could be made (E_CONNECT: refused, DNS, connect timeout): nothing was sent. */
  | { kind: 'unreachable'; since: Date; message: string; retryAt?: Date | null }
  /** The service was reached and the purchase failed there or on the way back (a 5xx, no answer, a broken answer). */
  | { kind: 'service_error'; problem: ServiceProblem; since: Date; message: string; retryAt?: Date | null };

/**
 * What went wrong once the service was reached, in the words the wall uses: `error` a 5xx, `no_answer` no answer in
 * time, `connection_lost` the connection broke after sending, `bad_answer` an answer that cannot be read, `busy` rate
 * limited, `refused` any other 4xx. The HTTP detail (`message`) goes to the status page, state.json and the log.
 */
export type ServiceProblem = 'error' | 'no_answer' | 'connection_lost' | 'bad_answer' | 'busy' | 'refused';

/**
 * Where a frame sends its reader for the detail (a refused key, a failure with no retry time): the status page at
 * its address, the status page of an address not known (listen port 0), or no status page at all (no `http`
 * section: the log instead).
 */
export type StatusPlace = { kind: 'page'; url: string } | { kind: 'page_unknown' } | { kind: 'no_page' };
