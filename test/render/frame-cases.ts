import { chooseLayout, viewSize, type FrameInput } from '../../src/render/frame.js';
import { listPanelIds, loadPanel, type PanelProfile } from '../../src/panels/panels.js';
import type { Locale } from '../../src/i18n/locale.js';
import { SAMPLE_CASES, type SampleCase, sampleInput } from '../fixtures/samples.js';

/**
 * Frame cases beyond the gallery's samples, for the frame checks (text-boxes.test.ts, small-garments-kept.test.ts).
 * Inputs with the age badge (none of the sample cases has it: theirs are of an earlier day, with a headline):
 * the 05:00 outfit seen at 07:45 the same morning, out of date by its schedule ("3 h old"), without an error and on
 * an error's band (where the badge heads the garment row on a small panel).
 */
export type BadgeCase = 'badge' | 'badge-error';

export const BADGE_CASES: readonly BadgeCase[] = ['badge', 'badge-error'];

export function badgeInput(c: BadgeCase, locale: Locale): FrameInput {
  const base = sampleInput('normal', 'Hallway', locale);
  const made = '2026-01-31T04:00:00.000Z';
  const input: FrameInput = {
    ...base,
    rec: { ...base.rec!, fetched_at: made },
    stale: true,
    status: { kind: 'stale', since: new Date(made) },
  };
  if (c === 'badge') return input;
  return {
    ...input,
    status: {
      kind: 'service_error',
      problem: 'error',
      since: new Date('2026-01-31T06:00:00.000Z'),
      retryAt: new Date('2026-01-31T07:12:00.000Z'),
      message: 'HTTP 502',
    },
  };
}

/**
 * The screen without an outfit: nothing bought since the service went out of reach the evening before ("since
 * yesterday 20:00", the status in the largest words a small panel has).
 */
export type ScreenCase = 'no-outfit';

/** A case the frame checks draw. */
export type FrameCase = SampleCase | BadgeCase | ScreenCase;

/** Every case the frame checks draw: the sample cases and the badge's. */
export const ALL_CASES: readonly FrameCase[] = [...SAMPLE_CASES, ...BADGE_CASES, 'no-outfit'];

/** A case's input in `locale`. */
export function caseInput(c: FrameCase, locale: Locale): FrameInput {
  if (c === 'no-outfit') {
    const since = new Date('2026-01-30T19:00:00.000Z');
    return {
      ...sampleInput('normal', 'Hallway', locale),
      rec: null,
      status: {
        kind: 'unreachable',
        since,
        retryAt: new Date('2026-01-31T07:00:00.000Z'),
        message: 'connect ECONNREFUSED',
      },
    };
  }
  return c === 'badge' || c === 'badge-error' ? badgeInput(c, locale) : sampleInput(c, 'Hallway', locale);
}

/** The ways round a panel is drawn in the frame checks. */
export const ROTATIONS = [0, 90] as const;

/** Whether `panel` turned `rotation` gets the small layout (2.13", 2.9", 4.2"). */
export function isSmallView(panel: PanelProfile, rotation: 0 | 90): boolean {
  const { width, height } = viewSize(panel, rotation);
  return chooseLayout(width, height, true) === 'small';
}

/** Every panel and rotation that gets the small layout. */
export function smallViews(): { id: string; panel: PanelProfile; rotation: 0 | 90 }[] {
  return listPanelIds().flatMap((id) => {
    const panel = loadPanel(id);
    return ROTATIONS.filter((rotation) => isSmallView(panel, rotation)).map((rotation) => ({ id, panel, rotation }));
  });
}
