import { randomBytes } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { readAtMost, type ReadAtMost } from '../shared/read-at-most.js';

/**
 * One picture to an OpenEPaperLink access point: `POST <ap>/imgupload`, multipart/form-data with the tag's `mac`,
 * `dither=0` (the frame is already drawn in the tag's palette: nearest colour gives it back), the `ttl` in minutes
 * (when the tag should check in again: our next update) and the JPEG as a file part. The answers, from
 * ../shared/facts/openepaperlink.md: 200 accepted; 409 busy, come back later; 400 "mac not found"; another 400 for a
 * form it cannot read. Older firmware answers an unknown MAC with 200 "Error while saving: mac not found" (its
 * web.cpp, doImageUpload), so the words count whatever the status. The fields go before the file: the access point
 * reads `mac` when the file's first bytes arrive.
 *
 * The access point's answers are a few words of plain text, so at most ANSWER_LIMIT_BYTES of one are read; the rest
 * is left unread (the connection closed). An answer longer than that is not an OpenEPaperLink answer: it confirms
 * nothing, so it is a refusal, whatever its status.
 */

/** The most of an answer read: far above the few words an access point says, far below what would weigh on memory. */
export const ANSWER_LIMIT_BYTES = 64 * 1024;

export type UploadResult =
  | { kind: 'accepted' }
  /** 409: the access point is busy with another tag; try again later. */
  | { kind: 'busy'; detail: string }
  /** No answer, and the upload did not get through whole: the connection refused or reset. */
  | { kind: 'unreachable'; detail: string }
  /**
   * The upload went out but no whole answer came back in time (or the answer broke off): the access point may have
   * taken the picture, so the same one is not sent again.
   */
  | { kind: 'unconfirmed'; detail: string }
  /** 400 "mac not found": the access point has no such tag. */
  | { kind: 'mac_unknown'; detail: string }
  /** Any other answer that is not 2xx, or one past ANSWER_LIMIT_BYTES. */
  | { kind: 'refused'; status: number; detail: string };

export interface UploadRequest {
  /** The access point's base URL (openepaperlink.access_point): only its origin is used, never a login in it. */
  accessPoint: string;
  mac: string;
  jpeg: Buffer;
  /** Minutes until the tag should check in again, or null to leave the access point's default. */
  ttlMinutes: number | null;
  dispatcher: Dispatcher;
  /** Gives up on the whole exchange after this long (an access point busy with the radio can be slow). */
  timeoutMs: number;
}

/** The multipart body: the fields first, the file last, as a browser's form sends them. */
export function multipartBody(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { name: string; filename: string; type: string; data: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----outfit-display-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
  );
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `http://host:port`: the access point's URL without a login, a path, a query or a fragment (what is sent and logged). */
function accessPointOrigin(accessPoint: string): string {
  return new URL(accessPoint).origin;
}

/** A timeout of ours or of undici's: the request went out, no answer came in time. */
function timedOut(err: unknown, signal: AbortSignal): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return `${e.code ?? e.name}${e.message ? ` (${e.message})` : ''}`;
}

export async function uploadJpeg(r: UploadRequest): Promise<UploadResult> {
  const fields: Array<[string, string]> = [
    ['mac', r.mac],
    ['dither', '0'],
  ];
  if (r.ttlMinutes !== null) fields.push(['ttl', String(r.ttlMinutes)]);
  const { body, contentType } = multipartBody(fields, {
    name: 'file',
    filename: `${r.mac}.jpg`,
    type: 'image/jpeg',
    data: r.jpeg,
  });
  const url = `${accessPointOrigin(r.accessPoint)}/imgupload`;
  // One deadline for the whole exchange: an answer trickled a byte at a time does not hold the tag's slot forever.
  const signal = AbortSignal.timeout(r.timeoutMs);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: 'POST',
      dispatcher: r.dispatcher,
      headers: { 'content-type': contentType, 'content-length': String(body.length) },
      body,
      signal,
      headersTimeout: r.timeoutMs,
      bodyTimeout: r.timeoutMs,
    });
  } catch (err) {
    if (timedOut(err, signal))
      return { kind: 'unconfirmed', detail: `${url}: no answer within ${r.timeoutMs / 1000} s` };
    return { kind: 'unreachable', detail: `${url}: ${reasonOf(err)}` };
  }
  let answer: ReadAtMost;
  try {
    answer = await readAtMost(res.body, ANSWER_LIMIT_BYTES);
  } catch (err) {
    const why = timedOut(err, signal) ? `not whole within ${r.timeoutMs / 1000} s` : `broke off: ${reasonOf(err)}`;
    return { kind: 'unconfirmed', detail: `${url}: ${res.statusCode}, the answer ${why}` };
  }
  const text = answer.bytes.toString('utf8').trim().slice(0, 200);
  if (answer.over) {
    return {
      kind: 'refused',
      status: res.statusCode,
      detail: `${res.statusCode} with an answer over ${ANSWER_LIMIT_BYTES / 1024} KiB (not an OpenEPaperLink answer; the rest was not read)`,
    };
  }
  if (/mac not found/i.test(text))
    return { kind: 'mac_unknown', detail: `the access point knows no tag ${r.mac} (${res.statusCode} ${text})` };
  if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'accepted' };
  if (res.statusCode === 409) return { kind: 'busy', detail: `409 ${text || 'busy'}` };
  return { kind: 'refused', status: res.statusCode, detail: `${res.statusCode} ${text}`.trim() };
}
