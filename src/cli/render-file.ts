import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { describeIssues } from '../shared/describe-issue.js';
import { RecommendationSchema, type StoredRecommendation } from '../api/schemas.js';
import { displayFrameInput, type DisplayRenderOptions } from '../render/display-frame.js';
import {
  encodeFrame,
  encodeFramePng,
  renderIndices,
  type Frame,
  type FramePerson,
  type UnshownScript,
} from '../render/frame.js';
import { isHouseholdFile, readHousehold } from './render-household.js';
import { frameJson } from '../render/frame-json.js';
import type { PanelProfile } from '../panels/panels.js';
import { previewState, type PreviewStatus } from './preview-state.js';

/**
 * The `render` command's work: a saved Recommendation JSON (as the service sent it, or as we stored it with
 * `fetched_at`), or a household file of several (render-household.ts), to a frame file, offline. The format follows the output's extension: .png, .bmp, .bin or .raw;
 * .json writes what the frame shows instead (render/frame-json.ts), with the dither it was drawn with. With a time and
 * a status (`--now`, `--status`), the frame the wall would show then, in that state (preview-state.ts).
 */

export type FrameFormat = 'png' | 'bmp' | 'raw' | 'json';

function formatForPath(outPath: string): FrameFormat {
  const ext = extname(outPath).toLowerCase();
  if (ext === '.png') return 'png';
  if (ext === '.bmp') return 'bmp';
  if (ext === '.bin' || ext === '.raw') return 'raw';
  if (ext === '.json') return 'json';
  throw new Error(`cannot tell the frame format of ${outPath}: use .png, .bmp, .bin, .raw or .json`);
}

/** What an input file holds: one Recommendation, or a household's (render-household.ts). */
interface RenderInput {
  /** The Recommendation, or the household's first answer (its time and the frame's state go by it). */
  rec: StoredRecommendation;
  people?: FramePerson[];
}

/**
 * Reads and validates a Recommendation file, or a household file (`{"people": […]}`); errors name the file and, for
 * invalid data, each field's path.
 */
async function readInputFile(path: string): Promise<RenderInput> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (isHouseholdFile(data)) {
    const people = readHousehold(path, data);
    // The frame's time goes by the newest answer: none of them is drawn as if it came from the future.
    const newest = people.reduce((a, b) => (Date.parse(b.rec!.fetched_at) > Date.parse(a.rec!.fetched_at) ? b : a));
    return { rec: newest.rec!, people };
  }
  const parsed = RecommendationSchema.safeParse(data);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error);
    throw new Error(`${path} is not a valid Recommendation: ${problems.join('; ')}`);
  }
  const rec = parsed.data;
  const fetched = (data as { fetched_at?: unknown }).fetched_at;
  // Neither time (both are optional in what we accept): the frame is drawn as of now.
  const fetchedAt =
    typeof fetched === 'string' && !Number.isNaN(Date.parse(fetched))
      ? fetched
      : (rec.generated_at ?? new Date().toISOString());
  return { rec: { ...rec, fetched_at: fetchedAt } };
}

function frameBytes(frame: Frame, format: 'bmp' | 'raw', panel: PanelProfile, outPath: string): Buffer {
  if (format === 'raw') return frame.raw;
  if (!frame.bmp)
    throw new Error(`cannot write ${outPath}: panel ${panel.id} is not black and white, and BMP frames are 1-bit only`);
  return frame.bmp;
}

/**
 * `args`: the files, and the display's render options (render/display-frame.ts: what the daemon draws it with, so the
 * preview is the daemon's frame); dither and locale may be left out (Floyd–Steinberg, English).
 */
export async function renderRecommendationFile(
  args: {
    inputPath: string;
    outPath: string;
    /** The time the frame is drawn for; default: when the recommendation was fetched, so the output is repeatable. */
    now?: Date;
    /** The display's state to draw (`--status`; preview-state.ts); default: ok, or stale where `now` makes it so. */
    status?: PreviewStatus;
    /** The display's schedule (a cron expression, `auto` resolved; in the display's time zone, the config's), for when
     * the answer goes stale and the next try; default none: nothing goes stale by the clock. */
    schedule?: string | null;
  } & Omit<DisplayRenderOptions, 'dither' | 'locale'> &
    Partial<Pick<DisplayRenderOptions, 'dither' | 'locale'>>,
): Promise<{ missingGlyphs: number[]; missingScripts: UnshownScript[] }> {
  const format = formatForPath(args.outPath);
  const { rec, people } = await readInputFile(args.inputPath);
  const now = args.now ?? new Date(rec.fetched_at);
  const state = previewState({
    status: args.status ?? 'ok',
    now,
    fetchedAt: new Date(rec.fetched_at),
    schedule: args.schedule ?? null,
    timezone: args.timezone,
  });
  const { input, panel, opts } = displayFrameInput(
    { ...args, dither: args.dither, locale: args.locale },
    { rec, ...state, now, ...(people && { people }) },
  );
  const detailed = renderIndices(input, panel, opts);
  let bytes: Buffer;
  // A PNG alone needs no BMP, raw planes or hash (a few ms of a cold `render`).
  if (format === 'png') bytes = encodeFramePng(panel, detailed.width, detailed.height, detailed.indices);
  else {
    const frame = encodeFrame(panel, opts.rotation, detailed);
    bytes =
      format === 'json'
        ? Buffer.from(
            `${JSON.stringify({ ...frameJson(detailed, panel, opts.rotation, frame.hash), dither: opts.dither ?? 'floyd-steinberg' }, null, 2)}\n`,
          )
        : frameBytes(frame, format, panel, args.outPath);
  }
  const tmp = `${args.outPath}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, args.outPath);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new Error(`cannot write ${args.outPath}: ${(err as Error).message}`);
  }
  // Characters drawn as boxes, and scripts said in words, for the caller to warn about (W_GLYPH_MISSING,
  // W_SCRIPT_NO_FONT): rendering does not log.
  return { missingGlyphs: detailed.report.missingGlyphs, missingScripts: detailed.report.missingScripts };
}
