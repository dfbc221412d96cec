import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { request } from '../api/undici-request.js';

/**
 * One picture to an OpenEPaperLink access point: `POST <ap>/imgupload`, multipart/form-data with the tag's `mac`,
 * `dither=0` (the frame is already drawn in the tag's palette: nearest colour gives it back), the `ttl` in minutes
 * (when the tag should check in again: our next update) and the JPEG as a file part. The answers, from
 * ../shared/facts/openepaperlink.md: 200 accepted; 409 busy, come back later; 400 "mac not found"; another 400 for a
 * form it cannot read. Older firmware answers an unknown MAC with 200 "Error while saving: mac not found" (its
 * web.cpp, doImageUpload), so the words count whatever the status. The fields go before the file: the access point
 * reads `mac` when the file's first bytes arrive.
 */

export type UploadResult =
  | { kind: 'accepted' }
  /** 409: the access point is busy with another tag; try again later. */
  | { kind: 'busy'; detail: string }
  /** No answer: refused, reset, timed out. */
  | { kind: 'unreachable'; detail: string }
  /** 400 "mac not found": the access point has no such tag. */
  | { kind: 'mac_unknown'; detail: string }
  /** Any other answer that is not 2xx. */
  | { kind: 'refused'; status: number; detail: string };

export interface UploadRequest {
  /** The access point's base URL (openepaperlink.access_point). */
  accessPoint: string;
  mac: string;
  jpeg: Buffer;
  /** Minutes until the tag should check in again, or null to leave the access point's default. */
  ttlMinutes: number | null;
  dispatcher: Dispatcher;
  /** Gives up on an answer after this long (an access point busy with the radio can be slow). */
  timeoutMs: number;
}

/** The multipart body: the fields first, the file last, as a browser's form sends them. */
export function multipartBody(fields: ReadonlyArray<readonly [string, string]>, file: { name: string; filename: string; type: string; data: Buffer }): { body: Buffer; contentType: string } {
  const boundary = `----outfit-display-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function uploadJpeg(r: UploadRequest): Promise<UploadResult> {
  const fields: Array<[string, string]> = [['mac', r.mac], ['dither', '0']];
  if (r.ttlMinutes !== null) fields.push(['ttl', String(r.ttlMinutes)]);
  const { body, contentType } = multipartBody(fields, { name: 'file', filename: `${r.mac}.jpg`, type: 'image/jpeg', data: r.jpeg });
  const url = `${r.accessPoint.replace(/\/+$/, '')}/imgupload`;
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: 'POST',
      dispatcher: r.dispatcher,
      headers: { 'content-type': contentType, 'content-length': String(body.length) },
      body,
      headersTimeout: r.timeoutMs,
      bodyTimeout: r.timeoutMs,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { kind: 'unreachable', detail: `${url}: ${e.code ?? e.name}${e.message ? ` (${e.message})` : ''}` };
  }
  let text = '';
  try {
    text = (await res.body.text()).trim().slice(0, 200);
  } catch (err) {
    return { kind: 'unreachable', detail: `${url}: the answer broke off (${(err as Error).message})` };
  }
  if (/mac not found/i.test(text)) return { kind: 'mac_unknown', detail: `the access point knows no tag ${r.mac} (${res.statusCode} ${text})` };
  if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'accepted' };
  if (res.statusCode === 409) return { kind: 'busy', detail: `409 ${text || 'busy'}` };
  return { kind: 'refused', status: res.statusCode, detail: `${res.statusCode} ${text}`.trim() };
}
