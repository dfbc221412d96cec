import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { sendText } from '../shared/http-respond.js';
import type { FirmwareOffers } from '../trmnl/firmware-offers.js';

/**
 * GET/HEAD /trmnl/firmware/<version>.bin: a firmware file some device was offered, streamed from its file (a Pi
 * serving ~1.5 MB should not hold a copy per request). The firmware needs 200 and Content-Length (it sizes its flash
 * write by it) and reads no checksum; the SHA-256 headers are for the owner's own checks (curl, a proxy).
 */
export async function serveFirmware(
  req: IncomingMessage,
  res: ServerResponse,
  offers: FirmwareOffers,
  version: string,
  log?: Logger,
): Promise<void> {
  const file = await offers.open(version);
  if (file === null) {
    req.resume();
    sendText(req, res, 404, 'no such firmware (only a version offered to a device is served)');
    return;
  }
  res.writeHead(200, {
    'X-Content-Type-Options': 'nosniff',
    'Content-Type': 'application/octet-stream',
    'Content-Length': file.size,
    'Cache-Control': 'no-store',
    'X-Firmware-SHA256': file.sha256Hex,
    Digest: `sha-256=${file.sha256Base64}`,
  });
  if (req.method === 'HEAD') {
    await file.handle.close();
    res.end();
    return;
  }
  // Exactly the bytes the length and digest were taken of: a file that grew meanwhile is cut at its old size.
  const stream = file.handle.createReadStream({ start: 0, end: file.size - 1 });
  try {
    await pipeline(stream, res);
  } catch (err) {
    // A device that went away mid-download: its flash is not committed (the firmware checks the image), nothing to do.
    log?.debug({ version, err }, 'a firmware download ended early');
  }
}
