import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BillingMode } from './billing.js';
import { parseBillingMode } from './billing.js';
import type { FaultQueue } from './faults.js';
import { parseFaults } from './faults.js';
import { readBody, sendError, sendJson, sendText } from './http-io.js';
import type { SimStats } from './stats.js';

/**
 * The simulator's control endpoints, for tests and demos driving it over HTTP. They need no key, are not rate
 * limited, not charged and not recorded in the stats:
 *   POST /_sim/faults   a fault or an array of faults → 201 { queued, pending }
 *   GET /_sim/faults    → 200 { pending }
 *   DELETE /_sim/faults → 200 { cleared }
 *   GET /_sim/stats     → 200 SimStats (with `billing`, `creditsBilled`, `creditsBilledByKey`)
 *   GET /_sim/billing   → 200 { billing }
 *   PUT /_sim/billing   { "billing": "success" | "every-200" | "every-request" } → 200 { billing }
 */

export const CONTROL_PREFIX = '/_sim';

export interface ControlContext {
  faults: FaultQueue;
  stats: () => SimStats;
  setBilling: (mode: BillingMode) => void;
}

export async function handleControl(
  ctx: ControlContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  const body = await readBody(req);
  const allowed: Record<string, string[]> = {
    '/_sim/faults': ['GET', 'POST', 'DELETE'],
    '/_sim/stats': ['GET'],
    '/_sim/billing': ['GET', 'PUT'],
  };
  const methods = allowed[url.pathname];
  if (!methods) {
    sendError(res, 404, `not found: ${url.pathname} (control endpoints: /_sim/faults, /_sim/stats, /_sim/billing)`);
    return;
  }
  if (method === 'OPTIONS') {
    sendText(res, 204, '', undefined, {
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    return;
  }
  if (!methods.includes(method)) {
    sendError(res, 405, `method ${method} not allowed on ${url.pathname}`, {
      Allow: [...methods, 'OPTIONS'].join(', '),
    });
    return;
  }
  if (url.pathname === '/_sim/stats') {
    sendJson(res, 200, ctx.stats());
    return;
  }
  if (url.pathname === '/_sim/billing') {
    if (method === 'PUT') {
      try {
        const input = JSON.parse(body.ok ? body.text : '') as { billing?: unknown } | null;
        ctx.setBilling(parseBillingMode(input?.billing));
      } catch (err) {
        sendError(res, 400, `send {"billing": "success" | "every-200" | "every-request"}: ${(err as Error).message}`);
        return;
      }
    }
    sendJson(res, 200, { billing: ctx.stats().billing });
    return;
  }
  if (method === 'GET') {
    sendJson(res, 200, { pending: ctx.faults.pending() });
    return;
  }
  if (method === 'DELETE') {
    sendJson(res, 200, { cleared: ctx.faults.clear() });
    return;
  }
  if (!body.ok) {
    sendError(res, 413, 'request body too large');
    return;
  }
  let input: unknown;
  try {
    input = JSON.parse(body.text);
  } catch {
    sendError(res, 400, 'request body is not valid JSON: send a fault object or an array of faults');
    return;
  }
  try {
    const faults = parseFaults(input);
    for (const f of faults) ctx.faults.add(f);
    sendJson(res, 201, { queued: faults.length, pending: ctx.faults.pending() });
  } catch (err) {
    sendError(res, 400, err instanceof Error ? err.message : String(err));
  }
}
