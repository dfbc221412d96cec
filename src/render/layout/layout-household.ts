import { drawTopBand, newReport, rule, topBandHeight, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { drawAlertBlock } from './alert-block.js';
import { drawPersonCell, type PersonCellOptions } from './person-cell.js';
import { arrange } from './household-arrangement.js';
import type { Surface } from '../draw/surface.js';
import { GEOMETRY, MARGIN, readingSizeOf, spacing, type WideGeometry } from './wide-geometry.js';
import { drawIcon, drawWeather, weatherPlan } from './wide-weather.js';

/**
 * A household on a wall panel (docs/guides/household.md, "The household frame"): the band and the shared weather
 * once, as the wall layout draws them (wide-weather.ts), then up to HOUSEHOLD_MAX people, each in a cell of their own
 * (person-cell.ts), placed as household-arrangement.ts chooses, a rule between them. A household of one is
 * drawn so too: their name and their additions have their place.
 */

/** People a wall frame shows at most: four columns of 20′ pictograms fill a 7.5" panel's width. */
export const HOUSEHOLD_MAX = 4;

/** The smallest garment pictogram of a household frame, arc minutes at the viewing distance. */
const PICTOGRAM_ARC_MIN = 20;

/** The outfit's largest size as a share of the type scale's outfit: a short outfit grows, never past the names. */
const OUTFIT_GROWTH = 1.25;

/** An added garment's pictogram as a share of the label's size: about a line of it high. */
const ADDITION_OF_LABEL = 1.3;

/** Alert lines at most, by layout: a household needs the height for its people. */
const ALERT_LINES: Readonly<Record<WideGeometry['layout'], number>> = { landscape: 1, portrait: 2 };

/** The sizes every person's cell gets on this frame. */
function cellOptions(sf: Surface, g: WideGeometry): PersonCellOptions {
  const S = sf.scale;
  // 20′ as a share of the scale's 30′ rounds up a little (tan grows faster than its angle): never below 20′.
  const pictogramMin = Math.ceil((S.pictogram * PICTOGRAM_ARC_MIN) / 30);
  const reading = readingSizeOf(sf, g);
  return {
    nameSize: Math.ceil(reading),
    pictogramMin,
    pictogramMax: Math.max(pictogramMin, S.pictogram),
    // Small, as the label's line is high: the person's own, beside the service's garments, never as large as them.
    additionSize: Math.round(reading * ADDITION_OF_LABEL),
    labelSize: reading,
    outfitMax: Math.round(S.outfit * OUTFIT_GROWTH),
    inline: false,
  };
}

/** A vertical rule of `w` px at `x` from `y` down `h` px. */
function columnRule(sf: Surface, x: number, y: number, h: number, w: number): void {
  const box = { x: Math.round(x - w / 2), y: Math.round(y), w: Math.max(1, Math.round(w)), h: Math.round(h) };
  sf.crisp.fillStyle = sf.theme.ink;
  sf.crisp.fillRect(box.x, box.y, box.w, box.h);
  sf.drawn.rule(box);
}

export function layoutHousehold(sf: Surface, c: FrameContent, layout: WideGeometry['layout']): LayoutReport {
  const g = GEOMETRY[layout];
  const report = newReport(layout);
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const m = MARGIN * u;
  const people = (c.people ?? []).slice(0, HOUSEHOLD_MAX);
  const bandH = topBandHeight(sf, c, g.band.height * u);
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  const s = spacing(sf, g, c, true);
  let y = bandH + s.band * u;
  if (c.weather) {
    const icon = drawWeather(sf, c, c.weather, y, g, s, report);
    drawIcon(sf, c, icon, report);
    y += weatherPlan(sf, c, c.weather, g, s).height;
  }
  const alertSize = Math.max(g.alerts.size * u, readingSizeOf(sf, g));
  const alertH = drawAlertBlock(
    sf,
    c,
    { box: { x: m, y, w: W - 2 * m, h: 0 }, maxLines: ALERT_LINES[layout], size: alertSize, whole: 0 },
    report,
  );
  if (alertH > 0) y += alertH + s.alerts * u;
  const o = cellOptions(sf, g);
  const bottom = H - Math.max(g.outfit.bottom * u, sf.scale.margin);
  // Between two people: a thin rule, the frame's margin and a little more either side of it.
  const thin = Math.max(1, Math.round(2 * u));
  const half = Math.max(sf.scale.margin + thin, Math.round(8 * u));
  const area = { x: m, y, w: W - 2 * m, h: bottom - y };
  const placed = arrange(sf, { layout, people, area, half, cell: o });
  placed.cells.forEach((cell, i) => drawPersonCell(sf, people[i]!, cell.box, { ...o, inline: cell.inline }, report));
  for (const r of placed.dividers) {
    if (r.w > r.h) rule(sf, r.x, r.y - thin / 2, r.w, thin);
    else columnRule(sf, r.x, r.y, r.h, thin);
  }
  return report;
}
