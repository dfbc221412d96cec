import { withGlyphDiskCache } from './glyph-disk-cache.js';
import { drawInProcess } from './display-frame.js';
import type { RenderReply, RenderRequest } from './render-process.js';

/**
 * The child side of render-process.ts: draws the frames the daemon asks for over the IPC channel, one at a time in
 * the order asked, until the channel closes; then it saves the glyph bitmaps it drew (glyph-disk-cache.ts) for the
 * next child and returns. A frame that cannot be drawn is answered with why; the child goes on.
 */
export async function serveRenders(): Promise<void> {
  const send = process.send?.bind(process);
  if (send === undefined)
    throw new Error('no IPC channel: the render worker is started by the daemon (render-process.ts)');
  const reply = (r: RenderReply): Promise<void> =>
    new Promise((resolve) => {
      // A parent that went away meanwhile gets nothing; the channel's close ends this process.
      try {
        send(r, undefined, undefined, () => resolve());
      } catch {
        resolve();
      }
    });
  const draw = async (m: RenderRequest): Promise<void> => {
    try {
      await reply({ id: m.id, frame: await drawInProcess(m.options, m.state, m.as) });
    } catch (err) {
      await reply({ id: m.id, error: { message: err instanceof Error ? err.message : String(err) } });
    }
  };
  await withGlyphDiskCache(
    () =>
      new Promise<void>((resolve) => {
        let queue = Promise.resolve();
        process.on('message', (m: RenderRequest) => {
          queue = queue.then(() => draw(m));
        });
        process.once('disconnect', () => void queue.then(resolve));
      }),
  );
}
