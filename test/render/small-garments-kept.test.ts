import { describe, expect, it } from 'vitest';
import { layoutFrame } from '../../src/render/frame.js';
import { BUILT_IN_LOCALES, localeFor } from '../../src/i18n/locale.js';
import type { FrameInput } from '../../src/render/frame.js';
import type { PanelProfile } from '../../src/panels/panels.js';
import type { LayoutReport } from '../../src/render/layout/blocks.js';
import { ALL_CASES, BADGE_CASES, caseInput, smallViews } from './frame-cases.js';
import { frameContent } from '../../src/render/layout/content.js';

/**
 * On the small panels the status, the headline, the age badge and the alerts take their room from
 * the outfit's words, never from the garment row (the 2.13" error frame in Polish showed only "+6").
 */

/**
 * The frame's layout report, each frame drawn once for the file's checks: a frame depends only on what frameContent
 * makes of its input (and the panel and rotation), so two inputs with the same content share one drawing.
 */
const drawn = new Map<string, LayoutReport>();
function reportOf(input: FrameInput, panel: PanelProfile, rotation: 0 | 90): LayoutReport {
  const exact = (_: string, v: unknown): unknown => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
  const key = `${panel.id}|${rotation}|${JSON.stringify(frameContent(input), exact)}`;
  let report = drawn.get(key);
  if (report === undefined) drawn.set(key, (report = layoutFrame(input, panel, { rotation }).report));
  return report;
}

/** The same outfit on a calm frame: current, no status, no alerts; what the row shows there is the panel's norm. */
function calm(input: FrameInput): FrameInput {
  const rec = input.rec!;
  const made = new Date(rec.fetched_at);
  return {
    ...input,
    rec: { ...rec, weather: { ...rec.weather, alerts: [] } },
    status: { kind: 'ok' },
    stale: false,
    now: new Date(made.getTime() + 15 * 60_000),
  };
}

describe('the small panels’ garment row', () => {
  it('shows as many garments with any status, badge, headline or alert as on the calm frame, in every locale', () => {
    const found: string[] = [];
    // The 2.13", 2.9" and 4.2" (the OpenEPaperLink tags' too), each at least one way round.
    expect(new Set(smallViews().map((v) => v.id))).toEqual(
      new Set(['waveshare-2in13', 'waveshare-2in9', 'waveshare-4in2', 'oepl-2in9-bwr', 'oepl-4in2-bwr']),
    );
    for (const { id, panel, rotation } of smallViews()) {
      for (const code of BUILT_IN_LOCALES) {
        const locale = localeFor(code);
        for (const c of ALL_CASES) {
          const input = caseInput(c, locale);
          // The screen without an outfit has no row.
          if (input.rec === null) continue;
          const report = reportOf(input, panel, rotation);
          const norm = reportOf(calm(input), panel, rotation);
          const row = (r: typeof report): string => `${r.pictograms.length}+${r.pictogramsMore}`;
          if (row(report) !== row(norm))
            found.push(`${id} ${rotation}° ${code} ${c}: ${row(report)} drawn, ${row(norm)} on the calm frame`);
        }
      }
    }
    expect(found).toEqual([]);
  }, 60_000);

  it('keeps the age badge whole beside them or below them, in every locale ("2 godz. temu", not "2 godz…")', () => {
    const found: string[] = [];
    for (const { id, panel, rotation } of smallViews()) {
      for (const code of BUILT_IN_LOCALES) {
        for (const c of BADGE_CASES) {
          const input = caseInput(c, localeFor(code));
          const report = reportOf(input, panel, rotation);
          const whole = frameContent(input).ageBadge;
          if (report.badge?.text !== whole)
            found.push(`${id} ${rotation}° ${code} ${c}: "${report.badge?.text}" for "${whole}"`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
