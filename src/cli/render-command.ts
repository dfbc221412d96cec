import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { secretValues } from '../config/secrets.js';
import { displayRenderOptions, renderContext } from '../render/display-frame.js';
import { withGlyphDiskCache } from '../render/glyph-disk-cache.js';
import { renderRecommendationFile } from './render-file.js';
import { commandFlags } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';
import { need, UsageError } from './usage-error.js';
import { parsePreviewNow, parsePreviewStatus } from './preview-state.js';

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  display: { type: 'string', short: 'd' },
  input: { type: 'string', short: 'i' },
  out: { type: 'string', short: 'o' },
  now: { type: 'string' },
  status: { type: 'string' },
} as const;

/**
 * `render --config F --input REC.json [--display ID] [--now ISO] [--status KIND] --out FILE`: a saved Recommendation,
 * offline; with --now and --status, as the wall would show it at that time in that state.
 */
export async function renderCommand(argv: string[]): Promise<ExitCode> {
  const flags = commandFlags('render', argv, OPTIONS);
  const loaded = await loadCommandConfig('render', flags.config);
  const { config } = loaded;
  const id = flags.display ?? config.displays[0]?.id;
  const display = config.displays.find((d) => d.id === id);
  if (!display) throw new UsageError(`no display with id "${id}" in ${flags.config}`);
  const inputPath = need(flags.input, '--input REC.json', 'render');
  const outPath = need(flags.out, '--out FILE', 'render');
  const now = flags.now === undefined ? undefined : parsePreviewNow(flags.now);
  const status = flags.status === undefined ? undefined : parsePreviewStatus(flags.status);
  // The schedule matters only to a frame drawn at another time or in another state (when it goes stale, when it
  // retries); an "auto" one is worked out as the daemon does at that time, by the planner, loaded only then.
  const schedule =
    now === undefined && status === undefined
      ? null
      : display.schedule === 'auto'
        ? ((await import('../budget/planner.js'))
            .resolveSchedules(config, now === undefined ? {} : { now: now.getTime() })
            .get(display.id) ?? null)
        : display.schedule;
  // With the glyphs an earlier `render` or `once` of this build drew (glyph-disk-cache.ts).
  const { missingGlyphs, missingScripts } = await withGlyphDiskCache(() =>
    renderRecommendationFile({
      inputPath,
      outPath,
      ...displayRenderOptions(display, renderContext(loaded)),
      ...(now !== undefined && { now }),
      ...(status !== undefined && { status }),
      schedule,
    }),
  );
  if (missingGlyphs.length > 0 || missingScripts.length > 0) {
    // Loaded only here: the logger (pino) is most of a cold render's module loading after zod, and most frames
    // have no character to warn about.
    const [{ createLogger }, { GlyphWarnings }] = await Promise.all([
      import('../log/logging.js'),
      import('../render/glyph-warnings.js'),
    ]);
    const logger = createLogger({ level: config.log_level, secrets: secretValues(loaded.secrets) });
    const warnings = new GlyphWarnings(logger);
    warnings.report(missingGlyphs, { display: display.id });
    warnings.reportScripts(missingScripts, { display: display.id });
    logger.flush();
  }
  return EXIT.OK;
}
