import { drawFitted, drawLine, newReport, type LayoutReport } from './blocks.js';
import type { FrameContent } from './content.js';
import { statusMark } from '../pictograms/marks.js';
import type { Surface } from '../draw/surface.js';
import { fitLine, fitText } from '../text/text-fit.js';

/**
 * The screen when there is no outfit to show (nothing fetched yet): a large status symbol, the status in
 * words, the service's message, and the display's name. Any shape of panel.
 */
export function layoutError(sf: Surface, c: FrameContent): LayoutReport {
  return sf.drawn.within('status', () => {
    const report = newReport('error');
    const W = sf.width;
    const H = sf.height;
    const m = Math.min(W, H);
    const ink = sf.theme.ink;
    const st = c.status ?? {
      title: c.locale.labels.waiting_title,
      detail: c.locale.labels.waiting_detail,
      since: null,
      mark: 'clock' as const,
    };
    const small = m < 200;
    const wide = W > H * 1.4;
    const markS = m * (small ? 0.5 : 0.3);
    const pad = m * 0.05;
    let tx: number;
    let ty: number;
    if (wide) {
      statusMark(sf.crisp, st.mark, pad * 1.5, (H - markS) / 2 - pad, markS, sf.theme.status);
      sf.drawn.icon(`status-${st.mark}`, sf.theme.status);
      tx = pad * 3 + markS;
      ty = H * (small ? 0.08 : 0.22);
    } else {
      statusMark(sf.crisp, st.mark, (W - markS) / 2, H * 0.12, markS, sf.theme.status);
      sf.drawn.icon(`status-${st.mark}`, sf.theme.status);
      tx = pad;
      ty = H * 0.12 + markS + pad;
    }
    const tw = W - tx - pad;
    // Text never below 12 px: small panels are read from closer, but not from a magnifier.
    const px = (f: number, floor: number): number => Math.max(floor, m * f);
    const title = fitText({
      text: st.title,
      font: 'bold',
      width: tw,
      height: m * 0.32,
      maxSize: px(small ? 0.16 : 0.12, 14),
      minSize: px(0.07, 13),
      lineHeight: 1.15,
    });
    drawFitted(sf, title, tx, ty, ink, report);
    ty += title.height + pad * 0.5;
    const footer = px(0.06, 12);
    // How long it has lasted, then what happens next: "since 06:00 · trying again at 07:12".
    const detail = fitText({
      text: st.since ? `${st.since} · ${st.detail}` : st.detail,
      font: 'condensed',
      width: tw,
      height: H - ty - footer * 2,
      maxSize: px(0.075, 13),
      minSize: px(0.045, 12),
      lineHeight: 1.2,
    });
    drawFitted(sf, detail, tx, ty, ink, report);
    const when = c.now ? ` · ${c.now}` : '';
    const name = fitLine('condensed', `${c.name}${when}`, tw, footer, footer * 0.8);
    if (name.lines[0])
      drawLine(sf, {
        font: 'condensed',
        size: name.size,
        text: name.lines[0].text,
        x: tx,
        baseline: H - footer * 0.7,
        colour: ink,
        report,
      });
    return report;
  });
}
