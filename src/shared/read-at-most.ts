/**
 * Reading a peer's answer body with a cap: the daemon's own clients (the OpenEPaperLink upload, the Home Assistant
 * Supervisor lookup) never hold more of an answer than they can use. Past the cap the body is left at once: leaving
 * an undici body or a fetch body's stream early destroys it (the connection is closed), so the rest is never read,
 * whatever its size.
 */

/** What was read: at most `limit` bytes, and whether the body went on past them (then the rest was not read). */
export interface ReadAtMost {
  bytes: Buffer;
  over: boolean;
}

/**
 * Reads `body` (an undici body, a fetch Response's `body`, any stream of byte chunks) up to `limit` bytes. Rejects as
 * the body does (a reset, a timeout, an abort).
 */
export async function readAtMost(body: AsyncIterable<Uint8Array> | null, limit: number): Promise<ReadAtMost> {
  if (body === null) return { bytes: Buffer.alloc(0), over: false };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const room = limit - size;
    if (chunk.byteLength > room) {
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, room));
      // Leaving the loop destroys the stream (its iterator's return()): the connection goes, the rest stays unread.
      return { bytes: Buffer.concat(chunks), over: true };
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    size += chunk.byteLength;
  }
  return { bytes: Buffer.concat(chunks), over: false };
}
