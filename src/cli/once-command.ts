import { KeyRejectedError } from '../api/errors.js';
import { buildDaemon } from '../daemon/daemon.js';
import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { secretValues } from '../config/secrets.js';
import { createLogger } from '../log/logging.js';
import { withGlyphDiskCache } from '../render/glyph-disk-cache.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';
import { UsageError } from './usage-error.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  display: { type: 'string', short: 'd' },
} as const;

/** `once --config F [--display ID]`: one cycle of each display (or one): fetch, render, publish. */
export async function onceCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('once', argv, OPTIONS);
  const loaded = await loadCommandConfig('once', flags.config);
  if (flags.display !== undefined && !loaded.config.displays.some((d) => d.id === flags.display)) {
    throw new UsageError(`no display with id "${flags.display}" in ${loaded.file}`);
  }
  const logger = createLogger({ level: loaded.config.log_level, secrets: secretValues(loaded.secrets) });
  const daemon = await buildDaemon({ loaded, logger });
  try {
    // With the glyphs an earlier `render` or `once` of this build drew (glyph-disk-cache.ts).
    const results = await withGlyphDiskCache(() => daemon.runOnce(flags.display));
    const all = [...results.values()];
    if (all.some((r) => r.error instanceof KeyRejectedError)) {
      const err = all.find((r) => r.error instanceof KeyRejectedError)?.error;
      process.stderr.write(`API key rejected: ${err?.serviceMessage ?? err?.message ?? ''}\n`);
      return EXIT.KEY_REJECTED;
    }
    if (all.some((r) => r.outcome === 'budget_exhausted')) return EXIT.BUDGET_EXHAUSTED;
    if (all.some((r) => r.outcome === 'failed' || r.outcome === 'deferred' || !r.published)) return EXIT.FAILURE;
    return EXIT.OK;
  } finally {
    await daemon.stop();
    logger.flush();
  }
}
