import { drawTopBand, newReport, topBandHeight, type Box, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { drawHeadline, headlineSize, markOld, oldFrameThickness, type HeadlineBox } from './mark-old.js';
import { drawAlertBlock, planAlerts, type AlertBlockOptions } from './alert-block.js';
import { drawGarments, drawOutfitBlock, outfitBlockFit, outfitFits, outfitShown } from './outfit-block.js';
import { growRowIntoRoom, ROW_GROWTH } from './row-growth.js';
import { pictogramRowHeight, pictogramRowPlaces, type RowFit } from '../pictograms/pictogram-row.js';
import { chooseRoom, type HeadlinePlace, type RoomStep } from './wide-room.js';
import type { Surface } from '../draw/surface.js';
import { GEOMETRY, MARGIN, oldFrameAt, readingSizeOf, spacing, type WideGeometry } from './wide-geometry.js';
import { drawIcon, drawWeather, temperatureSizeOf, weatherPlan } from './wide-weather.js';

/**
 * Wall panels, read from 2 m (7.5", TRMNL, Inkplate, Kindle). Geometry in layout units (1 unit = 1 px at 800x480
 * or 480x800); text sizes from the type scale (type-scale.ts), which knows the panel's pixel density. From the
 * top: a thin band with the name and time (not meant for 2 m); the weather (icon, temperature, the readings as
 * pictogram + value); the garment pictograms; the outfit, as large as fits and never below 10′ of arc. The room goes
 * by priority (wide-room.ts): the outfit whole first, in every state.
 */

/** The smallest garment pictogram, units: at 40 they are told apart from 2 m. */
const PICTOGRAM_MIN = 40;
/**
 * The smallest a step may shrink the garment row to, as a share of the type scale's pictogram (30′ at 2 m): 14′,
 * where every pair is still told apart (the pair check runs down to 24 px) and the row still names every garment.
 */
const PICTOGRAM_SHRINK = 14 / 30;

/**
 * Up to this many garments keep the type scale's pictogram size (30′) whatever the outfit's length, closing their
 * gaps where the row is too narrow for them (pictogram-row.ts RowFit.heroUpTo).
 */
const HERO_GARMENTS = 6;

/**
 * The outfit's largest size as a share of the temperature's: its capitals stay clearly below the temperature's, since
 * an outfit as tall as the temperature reads as the frame's headline. The outfit's own smallest size (type-scale.ts)
 * still holds: this caps how large a short outfit grows, never how small one gets.
 */
const OUTFIT_OF_TEMPERATURE = 0.75;

/** Where each block of a step starts, px, from the headline down to the garment row. */
interface Tops {
  headline: number;
  weather: number;
  alerts: number;
  row: number;
}

/** The wall layout of an 800x480 frame or of one turned upright. */
export function layoutWide(sf: Surface, c: FrameContent, layout: WideGeometry['layout']): LayoutReport {
  const g = GEOMETRY[layout];
  const report = newReport(layout);
  const u = sf.unit;
  const W = sf.width;
  const H = sf.height;
  const m = MARGIN * u;
  const w = c.weather;
  const bandH = topBandHeight(sf, c, g.band.height * u);
  // An old outfit's dashed frame stands the frame's margin in from the edges; what it frames, the margin inside it.
  const insideOld = c.old ? oldFrameAt(sf) + oldFrameThickness(sf) + sf.scale.margin : 0;
  // The outfit's foot: the geometry's, and at least the frame's margin from the edge or the dashed frame.
  const bottom = c.old ? insideOld : Math.max(g.outfit.bottom * u, sf.scale.margin);
  // Alerts at least at the readings' size: a warning is read from where the weather is.
  const alertSize = Math.max(g.alerts.size * u, readingSizeOf(sf, g));
  const alertOpts = (y: number, whole: number): AlertBlockOptions => ({
    box: { x: m, y, w: W - 2 * m, h: 0 },
    maxLines: g.alerts.lines,
    size: alertSize,
    whole,
  });
  // The headline at the outfit's size above the weather; beside the garments, at that size or at the alerts'.
  const headlineBox = (y: number, place: HeadlinePlace): HeadlineBox => {
    const size = place.endsWith('-small') ? Math.min(alertSize, sf.scale.outfit) : sf.scale.outfit;
    // A little out into the side margin, as far as an old outfit's dashed frame's margin allows.
    const x = Math.max(m - 4 * u, insideOld);
    return { x, y, maxW: W - m - x, size, minSize: size };
  };
  const headlines =
    c.headline === null
      ? null
      : {
          above: headlineSize(sf, c.headline, headlineBox(0, 'above')),
          beside: headlineSize(sf, c.headline, headlineBox(0, 'beside')),
          'above-small': headlineSize(sf, c.headline, headlineBox(0, 'above-small')),
          'beside-small': headlineSize(sf, c.headline, headlineBox(0, 'beside-small')),
        };
  const isAbove = (place: HeadlinePlace): boolean => place.startsWith('above');
  /** The headline's size where a step puts it beside the garments, else null. */
  const beside = (step: RoomStep): { w: number; h: number } | null =>
    headlines && !isAbove(step.headline) ? headlines[step.headline] : null;
  const tops = (step: RoomStep): Tops => {
    const s = spacing(sf, g, c, step.tight);
    // An old outfit's dashed frame runs between the band and the weather: the gap makes room for it.
    // An old outfit's dashed frame runs the frame's margin below the band (oldFrameAt), what it frames the margin
    // inside it.
    const top = c.old ? bandH + insideOld : bandH + s.band * u;
    const weather = top + (headlines && isAbove(step.headline) ? headlines[step.headline].h + s.alerts * u : 0);
    const alerts = weather + (w ? weatherPlan(sf, c, w, g, s).height : 0);
    const alertH = planAlerts(sf, c, alertOpts(alerts, step.alertsWhole)).height;
    return { headline: top, weather, alerts, row: alerts + (alertH ? alertH + s.alerts * u : 0) };
  };
  // The garments as large as the type scale's pictogram (30′ at 2 m), or the geometry's size where that is larger;
  // after the headline where a step sets it beside them.
  const full = Math.max(g.pictograms.size * u, sf.scale.pictogram);
  const rowBox = (step: RoomStep, top: number, h: number): Box => {
    const b = beside(step);
    const x = b ? Math.max(m - 4 * u, insideOld) + b.w + 12 * u : m;
    return { x, y: top, w: W - m - x, h };
  };
  const temperature = w ? temperatureSizeOf(sf, c, w, g) : null;
  const maxSize = Math.min(
    g.outfit.maxSize * u,
    temperature === null ? Infinity : Math.floor(temperature * OUTFIT_OF_TEMPERATURE),
  );
  const outfitOpts = { maxSize, lineHeight: 1.1, reasoningMax: g.outfit.reasoningMax * u };
  // The row centred in its width; a row grown past the scale's size (growRowIntoRoom) keeps quarter gaps.
  const rowFit = (rows: 1 | 2): RowFit => ({ maxRows: rows, heroUpTo: HERO_GARMENTS, heroSize: full, centre: true });
  const below = (step: RoomStep, top: number, rows: 1 | 2, h: number): Box => {
    const rh = pictogramRowHeight(c.row, rowBox(step, top, h), PICTOGRAM_MIN * u, rowFit(rows));
    const used = Math.max(rh, beside(step)?.h ?? 0);
    const y = top + (used ? used + spacing(sf, g, c, step.tight).pictograms * u : 0);
    return { x: m, y, w: W - 2 * m, h: H - y - bottom };
  };
  const rowTops = new Map<RoomStep, number>();
  const rowTop = (step: RoomStep): number => {
    let top = rowTops.get(step);
    if (top === undefined) rowTops.set(step, (top = tops(step).row));
    return top;
  };
  // Up to HERO_GARMENTS keep the type scale's size until a step gives it up; more are smaller anyway.
  const floor = (step: RoomStep): number =>
    c.row.length > HERO_GARMENTS
      ? PICTOGRAM_MIN * u
      : Math.min(
          full,
          step.smallPictograms
            ? Math.max(PICTOGRAM_MIN * u, sf.scale.pictogram * PICTOGRAM_SHRINK)
            : sf.scale.pictogram,
        );
  // The headline goes beside the garments only where they all keep their places there, as large as a step that
  // shrinks them may make them at least.
  const smallest: RoomStep = { tight: true, smallPictograms: true, headline: 'above', alertsWhole: 0 };
  const places = (['beside', 'above-small', 'beside-small'] as const).filter((headline) => {
    if (isAbove(headline)) return true;
    const step = { ...smallest, headline };
    const box = rowBox(step, 0, floor(step));
    return (
      pictogramRowPlaces(c.row, box, PICTOGRAM_MIN * u, rowFit(1)) >= c.row.length &&
      pictogramRowHeight(c.row, box, PICTOGRAM_MIN * u, rowFit(1)) >= Math.floor(floor(step))
    );
  });
  const choice = chooseRoom({
    steps: roomSteps(Math.min(c.alerts.length, g.alerts.lines), headlines ? places : []),
    full,
    floor,
    twoRows: g.pictograms.rows === 2,
    whole: (step, rows, h, how) =>
      outfitFits(sf, c, below(step, rowTop(step), rows, h), {
        ...outfitOpts,
        oneSize: how === 'one-size',
        refusalsSmaller: how === 'refusals-smaller',
        sentenceEnd: how === 'sentence-end',
      }),
    shown: (step, h) => outfitShown(sf, c, below(step, rowTop(step), 1, h), outfitOpts),
  });
  const { step } = choice;
  const t = tops(step);
  drawTopBand(sf, c, { x: 0, y: 0, w: W, h: bandH }, report);
  if (c.headline !== null)
    drawHeadline(sf, c.headline, headlineBox(isAbove(step.headline) ? t.headline : t.row, step.headline), report);
  const icon = w ? drawWeather(sf, c, w, t.weather, g, spacing(sf, g, c, step.tight), report) : null;
  drawAlertBlock(sf, c, alertOpts(t.alerts, step.alertsWhole), report);
  // Where the row kept its size, it grows into the room a short outfit leaves, as far as the outfit keeps its size.
  const row = rowBox(step, t.row, choice.h);
  if (choice.h === full)
    growRowIntoRoom({
      row,
      ceiling: Math.round(sf.scale.pictogram * ROW_GROWTH),
      block: () => outfitBlockFit(sf, c, below(step, t.row, choice.rows, row.h), outfitOpts),
      height: () => pictogramRowHeight(c.row, row, PICTOGRAM_MIN * u, rowFit(choice.rows)),
    });
  drawGarments(sf, c, row, PICTOGRAM_MIN * u, report, rowFit(choice.rows));
  if (icon !== null) drawIcon(sf, c, icon, report);
  drawOutfitBlock(sf, c, below(step, t.row, choice.rows, row.h), outfitOpts, report);
  if (c.old) {
    // The weather with the outfit: its readings are as old as the garments, and never look current beside them.
    // In the side margins, the gap below the band and at the foot (oldFrameAt): it takes its room from the outfit's
    // foot, and moves the weather down.
    const frameAt = oldFrameAt(sf);
    const oldTop = bandH + frameAt;
    markOld(sf, { x: frameAt, y: oldTop, w: W - 2 * frameAt, h: H - oldTop - frameAt }, report);
  }
  return report;
}

/**
 * The steps a wall frame takes to keep the outfit whole (wide-room.ts), roomiest first: the geometry's spacing and
 * pictograms with every alert on the lines it needs; spacing closed up; pictograms below the scale's size; an old
 * outfit's headline beside the garments rather than above the weather, then at the alerts' size above the weather,
 * then beside the garments (`beside`: the places the garments leave it); then the alerts' second lines given up, the
 * least severe alert's first.
 */
function roomSteps(alerts: number, beside: readonly HeadlinePlace[]): RoomStep[] {
  const steps: RoomStep[] = [
    { tight: false, smallPictograms: false, headline: 'above', alertsWhole: alerts },
    { tight: true, smallPictograms: false, headline: 'above', alertsWhole: alerts },
    { tight: true, smallPictograms: true, headline: 'above', alertsWhole: alerts },
  ];
  for (const headline of beside) steps.push({ tight: true, smallPictograms: true, headline, alertsWhole: alerts });
  const headline = beside[beside.length - 1] ?? 'above';
  for (let n = alerts - 1; n >= 0; n--) steps.push({ tight: true, smallPictograms: true, headline, alertsWhole: n });
  return steps;
}
