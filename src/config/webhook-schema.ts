import { z } from '../shared/zod.js';

/**
 * The webhook's section of the one config schema (`webhook:`, docs/reference/configuration.md), composed into
 * schema.ts: a URL that gets each new frame and its display's state as a POST (src/webhook/).
 */

/**
 * An absolute http(s) URL without a login: a login in it (`https://user:password@host/…`) is refused, its password
 * never repeated, since a URL is easily shown; a header (`headers: {Authorization: …}`) carries one instead. The path
 * and query stay the owner's (a Home Assistant webhook's id is in its path), and are never logged.
 */
function checkWebhookUrl(url: string, ctx: z.RefinementCtx): void {
  const m = /^https?:\/\/([^/?#\s]*)([^#]*)$/s.exec(url);
  if (m === null)
    return void ctx.addIssue({
      code: 'custom',
      message:
        'must be an absolute http(s) URL such as http://192.168.1.10:8123/api/webhook/outfit, without a fragment',
    });
  if (m[1]!.includes('@'))
    return void ctx.addIssue({
      code: 'custom',
      message: 'must not carry a login (user:password@host): put it in a header, e.g. headers: {Authorization: …}',
    });
  if (m[1] === '' || !URL.canParse(url))
    ctx.addIssue({
      code: 'custom',
      message: 'must be an absolute http(s) URL such as http://192.168.1.10:8123/api/webhook/outfit',
    });
}

/** Headers the request sets itself: an owner's value would contradict the body. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'host', 'transfer-encoding', 'connection']);

function checkHeaders(headers: Record<string, string>, ctx: z.RefinementCtx): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: "is not a header name (letters, digits and !#$%&'*+.^_`|~-)",
      });
    else if (OWN_HEADERS.has(name.toLowerCase()))
      ctx.addIssue({ code: 'custom', path: [name], message: 'is set by the webhook itself; remove it' });
    // The value is never repeated: it may be a token.
    if (/[\r\n\0]/.test(value))
      ctx.addIssue({ code: 'custom', path: [name], message: 'must not contain a line break or NUL' });
  }
}

export const WebhookSchema = z.strictObject({
  /** Where each new frame is POSTed (JSON: the display's state and the frame as base64 PNG). */
  url: z.string().superRefine(checkWebhookUrl),
  /** Sent with every POST (an Authorization or a token header); never logged. */
  headers: z.record(z.string(), z.string()).superRefine(checkHeaders).default({}),
  /** The deadline of one POST, its answer included, in seconds. */
  timeout_s: z
    .number('must be a number')
    .min(1, 'must be between 1 and 120')
    .max(120, 'must be between 1 and 120')
    .default(10),
});
