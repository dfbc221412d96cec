import { escapeHtml } from '../../src/shared/escape-html.js';
/**
 * The live view's page: the simulated panel as it looks (ink on a paper tone, a black-white flash on a full
 * refresh), the device's battery figures, and the timeline, updated by Server-Sent Events as the device wakes.
 * One HTML file, inline CSS and script (nonce'd), no external asset; every text from the device goes in by
 * textContent, never as HTML.
 *
 * For tests the page exposes what it shows: body[data-wake] = the wake on the glass, body[data-flashes] = full-refresh
 * flashes shown, canvas[data-fnv] = an FNV-1a hash of the red channel of the picture it drew, canvas[data-paper] =
 * the paper tone.
 */

export const PAPER: readonly [number, number, number] = [232, 228, 214];
export const INK: readonly [number, number, number] = [36, 36, 40];

export interface LivePageOptions {
  title: string;
  width: number;
  height: number;
  nonce: string;
  fullMs: number;
}

const esc = escapeHtml;

export function renderLivePage(o: LivePageOptions): string {
  const scale = Math.min(1, 800 / Math.max(o.width, o.height));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)} · firmware simulator</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#3b3f45;color:#eee}
h1{font-size:1.15em;margin:0 0 8px}
.bezel{display:inline-block;background:#d9d6cf;padding:18px;border-radius:10px;box-shadow:0 4px 18px #0008;position:relative;max-width:100%;box-sizing:border-box}
canvas{display:block;width:${Math.round(o.width * scale)}px;max-width:100%;height:auto;image-rendering:pixelated}
#flash{position:absolute;inset:18px;pointer-events:none;opacity:0}
#flash.on{animation:flash var(--d,900ms) steps(1,end)}
@keyframes flash{0%{opacity:1;background:rgb(${INK.join(',')})}25%{opacity:1;background:rgb(${PAPER.join(',')})}50%{opacity:1;background:rgb(${INK.join(',')})}75%{opacity:1;background:rgb(${PAPER.join(',')})}100%{opacity:0}}
.stats{margin:10px 0;display:flex;gap:18px;flex-wrap:wrap}.stats b{color:#fff}
table{border-collapse:collapse;margin-top:8px;font-size:13px;background:#2d3035}
th,td{padding:3px 8px;border-bottom:1px solid #444;text-align:left;vertical-align:top}
tr.error td{color:#ffb3b3}tr.full td:nth-child(4){color:#ffe08a}
#status{color:#bbb}
</style>
</head>
<body data-wake="0">
<h1>${esc(o.title)}</h1>
<div class="bezel"><canvas id="glass" width="${o.width}" height="${o.height}" data-fnv="" data-paper="${PAPER.join(',')}"></canvas><div id="flash"></div></div>
<div class="stats">
<span>wake <b id="s-wake">–</b></span><span>battery <b id="s-batt">–</b></span><span>estimated <b id="s-days">–</b> days a charge</span>
<span>last refresh <b id="s-refresh">–</b></span><span id="status">connecting…</span>
</div>
<table><thead><tr><th>#</th><th>time</th><th>outcome</th><th>refresh</th><th>ms</th><th>changed px</th><th>ghosting</th><th>battery</th><th>sleep s</th><th>note</th></tr></thead><tbody id="rows"></tbody></table>
<script nonce="${o.nonce}">
(() => {
  const PAPER = [${PAPER.join(',')}], INK = [${INK.join(',')}], FULL_MS = ${Math.round(o.fullMs)};
  const canvas = document.getElementById('glass'), ctx = canvas.getContext('2d');
  const flash = document.getElementById('flash'), rows = document.getElementById('rows');
  const $ = (id) => document.getElementById(id);
  let shown = 0, queue = Promise.resolve();
  ctx.fillStyle = 'rgb(' + PAPER.join(',') + ')'; ctx.fillRect(0, 0, canvas.width, canvas.height);
  function fnv(data) { let h = 0x811c9dc5; for (let i = 0; i < data.length; i += 4) { h ^= data[i]; h = Math.imul(h, 0x01000193) >>> 0; } return h.toString(16); }
  function cell(tr, text) { const td = document.createElement('td'); td.textContent = text; tr.appendChild(td); }
  function addRow(l) {
    const tr = document.createElement('tr'); tr.className = l.outcome === 'error' ? 'error' : l.refresh;
    cell(tr, String(l.n)); cell(tr, new Date(l.at).toLocaleTimeString()); cell(tr, l.outcome); cell(tr, l.refresh);
    cell(tr, String(l.refresh_ms)); cell(tr, String(l.changed_pixels)); cell(tr, String(l.ghost_max));
    cell(tr, l.battery_pct.toFixed(2) + '%'); cell(tr, String(l.sleep_s));
    cell(tr, l.error ? l.error.code + ': ' + l.error.message : l.note);
    rows.insertBefore(tr, rows.firstChild);
    while (rows.children.length > 200) rows.removeChild(rows.lastChild);
  }
  async function draw(l, animate) {
    const img = new Image(); img.src = '/glass/' + l.n + '.png'; await img.decode();
    const off = document.createElement('canvas'); off.width = img.naturalWidth; off.height = img.naturalHeight;
    const octx = off.getContext('2d'); octx.drawImage(img, 0, 0);
    const src = octx.getImageData(0, 0, off.width, off.height);
    const sum = fnv(src.data);
    const out = ctx.createImageData(off.width, off.height);
    for (let i = 0; i < src.data.length; i += 4) {
      for (let k = 0; k < 3; k++) out.data[i + k] = Math.round(INK[k] + (PAPER[k] - INK[k]) * src.data[i + k] / 255);
      out.data[i + 3] = 255;
    }
    if (animate && l.refresh === 'full') {
      const d = Math.max(400, Math.min(1500, FULL_MS / 3));
      flash.style.setProperty('--d', d + 'ms'); flash.classList.remove('on'); void flash.offsetWidth; flash.classList.add('on');
      document.body.dataset.flashes = String(Number(document.body.dataset.flashes || 0) + 1);
      await new Promise((r) => setTimeout(r, d * 0.75));
    }
    canvas.width = off.width; canvas.height = off.height; ctx.putImageData(out, 0, 0);
    canvas.dataset.fnv = sum; shown = l.n; document.body.dataset.wake = String(l.n);
  }
  function stats(l) {
    $('s-wake').textContent = String(l.n); $('s-batt').textContent = l.battery_pct.toFixed(2) + '% (' + l.battery_v + ' V)';
    $('s-days').textContent = l.est_battery_days === null ? '–' : String(l.est_battery_days);
    if (l.refresh !== 'none') $('s-refresh').textContent = l.refresh + ', ' + l.refresh_ms + ' ms';
  }
  function take(l, animate) { addRow(l); stats(l); queue = queue.then(() => draw(l, animate)).catch((e) => { $('status').textContent = 'cannot draw: ' + e; }); }
  const es = new EventSource('/events');
  es.addEventListener('open', () => { $('status').textContent = 'live'; });
  es.addEventListener('error', () => { $('status').textContent = 'reconnecting…'; });
  es.addEventListener('timeline', (e) => {
    rows.textContent = ''; const ls = JSON.parse(e.data); ls.forEach((l) => { addRow(l); stats(l); });
    const last = ls[ls.length - 1];
    if (last && last.n > shown) queue = queue.then(() => draw(last, false)).catch(() => undefined);
  });
  es.addEventListener('wake', (e) => { const l = JSON.parse(e.data); if (l.n > shown) take(l, true); });
})();
</script>
</body>
</html>
`;
}
