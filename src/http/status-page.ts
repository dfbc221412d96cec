/**
 * The status page at `/`: one card a display (its frame, status, next update, last success, last error, the outfit)
 * and the credit budget. Plain HTML that reads on a phone, no script, no external asset. Every text is escaped:
 * outfit text and error messages come from the service.
 */

import { escapeHtml } from '../shared/escape-html.js';
import { PAIR_FORM_FIELD } from './pair-form-token.js';

export interface StatusPageDisplay {
  id: string;
  name: string;
  panel: string;
  /** Path of the frame image (with a cache-busting query), or null before the first frame. */
  frameSrc: string | null;
  width: number | null;
  height: number | null;
  status: string;
  statusText: string;
  healthy: boolean;
  nextUpdate: string;
  lastSuccess: string;
  lastError: string | null;
  outfit: string | null;
  weather: string | null;
  canRefresh: boolean;
  /** Why there is no refresh button, or the last refused refresh; null when there is nothing to say. */
  refreshNote: string | null;
  /**
   * Every problem of the display (a state file, the frame files, the drawing, a panel, a tag, a publisher): a row
   * each, under its source's heading, with what it means where that needs saying.
   */
  problems: readonly { label: string; text: string; note: string | null }[];
  /** The panel on this machine's header: its last refresh (its problem is among `problems`); absent without one. */
  attached?: { lastRefresh: string };
  /**
   * The display's TRMNL devices: a pairing button each, until when pairing is open (null: closed), and the form's
   * token (pair-form-token.ts) that the POST must send back.
   */
  trmnl?: { mac: string; pairingUntil: string | null; token: string }[];
  /** The devices that pull its frame (TRMNL, Kindle) and what each said at its last wake. */
  devices?: StatusPageDevice[];
  /** Firmware offered to its TRMNL devices: `AA:BB:…: offered 1.7.3 at 12:05 (failed once)`. */
  firmware?: string[];
}

/** A device that pulls a display's frame, as the status page shows it. */
export interface StatusPageDevice {
  /** `TRMNL X AA:BB:CC:DD:EE:FF`, `Kindle`. */
  name: string;
  /** Battery, power, signal, firmware, the screen drawn for, the room sensors: what it said at its last wake. */
  facts: string[];
  /** `12:05 (3 minutes ago), woken by its button`. */
  seen: string;
  /** Seen within three of its periods. */
  available: boolean;
}

export interface StatusPageModel {
  generatedAt: string;
  timezone: string;
  displays: StatusPageDisplay[];
  budget: {
    spentToday: number | null;
    limitToday: number | null;
    spentMonth: number | null;
    limitMonth: number | null;
    rateRemaining: number | null;
    warnings: string[];
    /** The split of the counted credits, and the service account's state (see credits-view.ts). */
    credits?: { ok: string[]; bad: string[] };
  } | null;
  /** A one-line notice (after a refresh press). */
  notice: string | null;
  /** The path prefix before every URL of ours (Home Assistant's ingress, `/api/hassio_ingress/<token>`); default ''. */
  base?: string;
}

function credits(spent: number | null, limit: number | null, period: string): string {
  if (spent === null) return '';
  const pct = limit !== null && limit > 0 ? Math.min(100, Math.round((spent / limit) * 100)) : null;
  const bar = pct === null ? '' : `<div class="bar"><div style="width:${pct}%"></div></div>`;
  return `<p><b>${spent}</b> ${limit === null ? '' : `of ${limit} `}credits spent ${escapeHtml(period)}${bar}</p>`;
}

/** A TRMNL device's pairing button (setup hands out its token only while pairing is open), with the page's token. */
function pairForm(t: { mac: string; pairingUntil: string | null; token: string }, base: string): string {
  const e = escapeHtml;
  const state = t.pairingUntil === null ? 'pairing closed' : `pairing open until ${t.pairingUntil}`;
  return `<form method="post" action="${e(base)}/trmnl/${e(t.mac.replace(/:/g, '-'))}/pair"><input type="hidden" name="${PAIR_FORM_FIELD}" value="${e(t.token)}"><button>Pair TRMNL ${e(t.mac)} (5 minutes)</button> <small>${e(state)}</small></form>`;
}

function deviceLine(v: StatusPageDevice): string {
  const e = escapeHtml;
  const seen = v.available ? `seen ${e(v.seen)}` : `<span class="bad">not seen since ${e(v.seen)}</span>`;
  return `<tr><th>${e(v.name)}</th><td>${v.facts.map(e).join(' · ')}${v.facts.length > 0 ? '<br>' : ''}<small>${seen}</small></td></tr>`;
}

function card(d: StatusPageDisplay, base: string): string {
  const e = escapeHtml;
  const img = d.frameSrc
    ? `<a href="${e(base + d.frameSrc)}"><img src="${e(base + d.frameSrc)}" width="${d.width ?? ''}" height="${d.height ?? ''}" alt="${e(`frame of ${d.name}`)}"></a>`
    : '<p class="none">No frame yet.</p>';
  const rows: [string, string][] = [
    ['Status', `<span class="${d.healthy ? 'ok' : 'bad'}">${e(d.statusText)}</span>`],
    ['Next update', e(d.nextUpdate)],
    ['Last success', e(d.lastSuccess)],
    ['Last error', d.lastError === null ? 'none' : e(d.lastError)],
    ['Panel', e(d.panel)],
  ];
  if (d.weather !== null) rows.splice(1, 0, ['Weather', e(d.weather)]);
  // The problems right under the status, in the order they are listed.
  const problems = d.problems.map((p): [string, string] => [
    p.label,
    `<span class="bad">${e(p.text)}${p.note === null ? '' : ` (${e(p.note)})`}</span>`,
  ]);
  rows.splice(1, 0, ...problems);
  if (d.attached !== undefined) rows.push(['Panel refreshed', e(d.attached.lastRefresh)]);
  const note = d.refreshNote === null ? '' : `<p class="none">${e(d.refreshNote)}</p>`;
  const refresh = d.canRefresh
    ? `<form method="post" action="${e(base)}/displays/${encodeURIComponent(d.id)}/refresh"><button>Refresh now (within budget)</button></form>${note}`
    : note;
  return `<section id="display-${e(d.id)}">
<h2>${e(d.name)} <small>${e(d.id)}</small></h2>
<div class="frame">${img}</div>
${d.outfit === null ? '' : `<p class="outfit">${e(d.outfit)}</p>`}
<table>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>
<p class="links"><a href="${e(base)}/displays/${encodeURIComponent(d.id)}/state.json">state.json</a> · <a href="${e(base)}/displays/${encodeURIComponent(d.id)}/frame.png">frame.png</a></p>
${(d.devices ?? []).length === 0 ? '' : `<h3>Devices</h3><table class="devices">${(d.devices ?? []).map(deviceLine).join('')}</table>`}
${(d.firmware ?? []).length === 0 ? '' : `<h3>Firmware</h3><ul class="firmware">${(d.firmware ?? []).map((l) => `<li>${e(l)}</li>`).join('')}</ul>`}
${refresh}
${(d.trmnl ?? []).map((t) => pairForm(t, base)).join('\n')}
</section>`;
}

export function renderStatusPage(m: StatusPageModel): string {
  const e = escapeHtml;
  const b = m.budget;
  const budget = b
    ? `<section><h2>Budget</h2>${credits(b.spentToday, b.limitToday, 'today')}${credits(b.spentMonth, b.limitMonth, 'this month')}${
        b.rateRemaining === null ? '' : `<p>${b.rateRemaining} requests left in this minute's rate limit</p>`
      }${(b.credits?.ok ?? []).map((l) => `<p>${e(l)}</p>`).join('')}${(b.credits?.bad ?? []).map((l) => `<p class="bad">${e(l)}</p>`).join('')}${b.warnings.map((w) => `<p class="bad">${e(w)}</p>`).join('')}</section>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="60">
<title>outfit-display</title>
<style>
body{font:16px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#f4f3ef;color:#222}
h1{font-size:1.3em;margin:0 0 4px}h2{font-size:1.15em;margin:0 0 8px}h3{font-size:1em;margin:12px 0 4px}h2 small{color:#777;font-weight:normal}
section{background:#fff;border-radius:8px;padding:12px;margin:12px 0;box-shadow:0 1px 3px #0002;max-width:820px}
.frame img{max-width:100%;height:auto;background:#e8e6df;border:1px solid #ccc;image-rendering:pixelated}
.outfit{font-size:1.1em}table{border-collapse:collapse}th{text-align:left;padding:2px 12px 2px 0;color:#555;font-weight:600;vertical-align:top}
td{padding:2px 0;overflow-wrap:anywhere}.ok{color:#176b2c}.bad{color:#a61b1b}.none{color:#777}
.bar{height:8px;background:#ddd;border-radius:4px;max-width:320px}.bar div{height:8px;background:#3a6ea5;border-radius:4px}
button{font:inherit;padding:8px 14px;margin-top:8px}.notice{background:#fff7d6;padding:8px;border-radius:6px}
</style>
</head>
<body>
<h1>outfit-display</h1>
<p>${e(m.generatedAt)} (${e(m.timezone)})</p>
${m.notice === null ? '' : `<p class="notice">${e(m.notice)}</p>`}
${m.displays.map((d) => card(d, m.base ?? '')).join('\n')}
${budget}
</body>
</html>
`;
}
