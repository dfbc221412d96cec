import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { UsageError } from './usage-error.js';

/**
 * `render-worker`: not for people. The daemon (`run`) starts it to draw its frames (render/render-process.ts) and
 * talks to it over an IPC channel; it ends when the daemon closes the channel.
 */
export async function renderWorkerCommand(argv: string[]): Promise<ExitCode> {
  if (argv.length > 0) throw new UsageError(`render-worker takes no arguments (got "${argv.join(' ')}")`);
  if (process.send === undefined)
    throw new UsageError('render-worker is started by the daemon (`run`) to draw its frames, not by hand');
  const { serveRenders } = await import('../render/render-worker.js');
  await serveRenders();
  return EXIT.OK;
}
