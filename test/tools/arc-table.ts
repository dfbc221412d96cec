import { pathToFileURL } from 'node:url';
import { layoutFrame } from '../../src/render/frame.js';
import { frameJson } from '../../src/render/frame-json.js';
import { listPanelIds, loadPanel } from '../../src/panels/panels.js';
import type { LayoutSizes } from '../../src/render/layout/blocks.js';
import { SAMPLE_CASES, type SampleCase, sampleInput } from '../fixtures/samples.js';

/**
 * The arc-minute table of docs/reference/frame-rules.md ("Across panels"), measured from the layout as drawn: per
 * panel and position, each role's arc minutes at the panel's viewing distance, and whether the outfit is whole in
 * every state where the fresh frame has it whole. Run: `npm run build && node dist/test/tools/arc-table.js`.
 */

/** DejaVu Sans's x-height (1,118 of 2,048 units) over its cap height (1,493): the outfit column gives the x-height. */
const X_OVER_CAPS = 1118 / 1493;

type Role = keyof LayoutSizes;

/** Which sample each column is measured on: the alert's for alerts, yesterday's outfit for the headline. */
const COLUMNS: readonly { title: string; role: Role | 'headline'; sample: SampleCase }[] = [
  { title: 'pictogram', role: 'pictogram', sample: 'normal' },
  { title: 'temperature (caps)', role: 'temperature', sample: 'normal' },
  { title: 'outfit (x-height)', role: 'outfit', sample: 'normal' },
  { title: 'feels-like (caps)', role: 'feelsLike', sample: 'normal' },
  { title: 'alert (caps)', role: 'alert', sample: 'alert' },
  { title: 'headline (caps)', role: 'headline', sample: 'old' },
];

function frame(id: string, c: SampleCase, rotation: 0 | 90) {
  const panel = loadPanel(id);
  const laid = layoutFrame(sampleInput(c), panel, { rotation });
  const json = frameJson(laid, panel, rotation, '');
  const r = laid.report;
  const whole = r.outfit !== null && !r.outfit.truncated && !(r.outfitRest?.truncated ?? false);
  return { json, report: r, whole };
}

function cell(id: string, rotation: 0 | 90, col: (typeof COLUMNS)[number]): string {
  const { json, report } = frame(id, col.sample, rotation);
  if (col.role === 'headline') {
    if (report.headline === null) return '—';
    const caps = json.sizes.outfit;
    // The headline is at its own size; its arc is that of capitals of that size, on the outfit's scale.
    const perPx = caps && caps.px > 0 ? caps.arc_minutes / caps.px : 0;
    return `${(report.headline.size * perPx).toFixed(1)}′`;
  }
  const s = json.sizes[col.role];
  if (!s) return '—';
  const arc = col.role === 'outfit' ? s.arc_minutes * X_OVER_CAPS : s.arc_minutes;
  return `${arc.toFixed(1)}′`;
}

/** The states in which the outfit is cut although the fresh ('normal') frame has it whole; "all" when none. */
function wholeInEveryState(id: string, rotation: 0 | 90): string {
  if (!frame(id, 'normal', rotation).whole) return 'cut when fresh';
  const cut = SAMPLE_CASES.filter((c) => ['error', 'offline', 'key', 'old'].includes(c)).filter(
    (c) => !frame(id, c, rotation).whole,
  );
  return cut.length === 0 ? 'yes' : `no: ${cut.join(', ')}`;
}

export function arcTable(): string {
  const head = ['panel', 'at', ...COLUMNS.map((c) => c.title), 'outfit whole in every state'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const id of listPanelIds()) {
    for (const rotation of [0, 90] as const) {
      const { json } = frame(id, 'normal', rotation);
      const at = json.viewing.kind === 'wall' ? '2 m' : '0.5 m';
      const name = `${id}${rotation === 90 ? ' (sideways)' : ''}`;
      const cells = COLUMNS.map((c) => cell(id, rotation, c));
      lines.push(`| ${[name, at, ...cells, wholeInEveryState(id, rotation)].join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(arcTable());
