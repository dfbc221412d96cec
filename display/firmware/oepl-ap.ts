import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { hexToRgb, type PanelProfile } from '../../src/panels/panels.js';

/**
 * The simulator's OpenEPaperLink access point (`simulate --via oepl`): what the daemon's OEPL publisher pushes to.
 * `POST /imgupload` (multipart/form-data: mac, dither, ttl, the JPEG), as ../shared/facts/openepaperlink.md says the
 * real one takes it: 400 "mac not found" for a tag it does not know, 400 for a missing field, else 200. The JPEG is
 * decoded by jpeg-js (not the daemon's encoder), each pixel mapped to the nearest colour of the tag's palette (the
 * access point with dither=0), and the glass written as `<out>/<mac>.png` in the palette's ink colours.
 */

export interface OeplApTag {
  mac: string;
  panel: PanelProfile;
}

export interface OeplUpload {
  mac: string;
  /** The JPEG's size, or null when it could not be decoded. */
  width: number | null;
  height: number | null;
  bytes: number;
  ttl: string | null;
  dither: string | null;
  /** Where the glass went, or why the upload was refused. */
  outcome: { kind: 'shown'; glass: string } | { kind: 'refused'; status: number; reason: string };
}

export interface OeplApOptions {
  /** The tags this access point knows (the config's openepaperlink.tags, with their profiles). */
  tags: readonly OeplApTag[];
  /** Where each tag's glass PNG is written. */
  outDir: string;
  /** host:port to listen on (the config's access_point); port 0: any free one. */
  host: string;
  port: number;
  /** Called after each upload. */
  onUpload?: (u: OeplUpload) => void;
}

/** The fields and the file of a multipart/form-data body. */
function readForm(body: Buffer, contentType: string): { fields: Map<string, string>; file: Buffer | null } {
  const b = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const fields = new Map<string, string>();
  let file: Buffer | null = null;
  if (!b) return { fields, file };
  const delim = Buffer.from(`--${b[1] ?? b[2]!}`);
  for (let at = body.indexOf(delim); at >= 0;) {
    const start = at + delim.length;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, Math.max(0, split)).toString('latin1');
    const data = part.subarray(split + 4);
    if (/filename="/.test(head)) file = data;
    else fields.set(/name="([^"]*)"/.exec(head)?.[1] ?? '', data.toString('utf8'));
    at = next;
  }
  return { fields, file };
}

/** Nearest palette colour per pixel, drawn in the palette's ink. */
export function glassOf(rgba: Uint8Array, width: number, height: number, panel: PanelProfile): Buffer {
  const pal = panel.palette.map((e) => hexToRgb(e.rgb));
  const ink = panel.palette.map((e) => hexToRgb(e.ink ?? e.rgb));
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    let best = 0;
    let bestD = Infinity;
    pal.forEach((c, k) => {
      const d = (c[0] - rgba[i * 4]!) ** 2 + (c[1] - rgba[i * 4 + 1]!) ** 2 + (c[2] - rgba[i * 4 + 2]!) ** 2;
      if (d < bestD) [best, bestD] = [k, d];
    });
    const [r, g, bl] = ink[best]!;
    png.data[i * 4] = r;
    png.data[i * 4 + 1] = g;
    png.data[i * 4 + 2] = bl;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

async function handle(
  o: OeplApOptions,
  req: IncomingMessage,
): Promise<{ status: number; text: string; upload: OeplUpload | null }> {
  if (req.method !== 'POST' || req.url !== '/imgupload') return { status: 404, text: 'not found', upload: null };
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const { fields, file } = readForm(Buffer.concat(chunks), req.headers['content-type'] ?? '');
  const mac = fields.get('mac') ?? '';
  const base = {
    mac,
    width: null,
    height: null,
    bytes: file?.length ?? 0,
    ttl: fields.get('ttl') ?? null,
    dither: fields.get('dither') ?? null,
  };
  const refuse = (status: number, reason: string) => ({
    status,
    text: reason,
    upload: { ...base, outcome: { kind: 'refused' as const, status, reason } },
  });
  if (mac === '' || file === null) return refuse(400, 'missing mac or file');
  const tag = o.tags.find((t) => t.mac.toUpperCase() === mac.toUpperCase());
  if (tag === undefined) return refuse(400, 'mac not found');
  let img: { width: number; height: number; data: Uint8Array };
  try {
    img = jpeg.decode(file, { useTArray: true, formatAsRGBA: true });
  } catch (err) {
    return refuse(400, `not a JPEG it can decode: ${(err as Error).message}`);
  }
  const sized = { ...base, width: img.width, height: img.height };
  if (img.width !== tag.panel.width || img.height !== tag.panel.height) {
    return {
      status: 400,
      text: 'wrong size',
      upload: {
        ...sized,
        outcome: {
          kind: 'refused',
          status: 400,
          reason: `${img.width}x${img.height}, the tag is ${tag.panel.width}x${tag.panel.height}`,
        },
      },
    };
  }
  const glass = path.join(o.outDir, `${tag.mac}.png`);
  await mkdir(o.outDir, { recursive: true });
  await writeFile(glass, glassOf(img.data, img.width, img.height, tag.panel));
  return { status: 200, text: 'Ok, saved', upload: { ...sized, outcome: { kind: 'shown', glass } } };
}

/** Starts the access point; resolves with its URL and a close(). */
export async function startOeplAp(o: OeplApOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    handle(o, req).then(
      (r) => {
        res.writeHead(r.status, { 'content-type': 'text/plain' }).end(r.text);
        if (r.upload) o.onUpload?.(r.upload);
      },
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `simulate --via oepl --display ID [--wakes N] [--out DIR]`: the access point of the config's openepaperlink section,
 * listening where access_point says (a local address), for the display's tags, until N pictures were shown (default
 * 1) or the signal. Exit 0 when a picture was shown and the last upload was not refused, 1 otherwise, 2 for a config
 * without the display's tags.
 */
export async function runOeplAp(
  config: {
    openepaperlink?:
      { access_point: string; tags: ReadonlyArray<{ mac: string; display: string; panel: string }> } | undefined;
  },
  f: { display?: string | undefined; wakes?: string | undefined; out?: string | undefined },
  io: { log: (line: string) => void; error: (line: string) => void; signal: AbortSignal },
  loadProfile: (id: string) => PanelProfile,
): Promise<0 | 1 | 2> {
  const oepl = config.openepaperlink;
  const tags = (oepl?.tags ?? []).filter((t) => t.display === f.display);
  const wakes = Number(f.wakes ?? 1);
  if (oepl === undefined || tags.length === 0 || !Number.isInteger(wakes) || wakes < 1) {
    io.error(
      `error: --via oepl needs openepaperlink.tags for display "${f.display ?? ''}" in the config, and --wakes a whole number of at least 1`,
    );
    return 2;
  }
  const u = new URL(oepl.access_point);
  const outDir = path.resolve(f.out ?? `simulator-${f.display ?? 'oepl'}`);
  let shown = 0;
  let last: OeplUpload | null = null;
  const done = new AbortController();
  const ap = await startOeplAp({
    tags: tags.map((t) => ({ mac: t.mac, panel: loadProfile(t.panel) })),
    outDir,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)),
    onUpload: (up) => {
      last = up;
      const what =
        up.outcome.kind === 'shown'
          ? `shown on ${up.outcome.glass}`
          : `refused ${up.outcome.status}: ${up.outcome.reason}`;
      io.log(
        `tag ${up.mac}: ${up.bytes} bytes JPEG ${up.width ?? '?'}x${up.height ?? '?'}, ttl ${up.ttl ?? '-'}, dither ${up.dither ?? '-'}: ${what}`,
      );
      if (up.outcome.kind === 'shown' && ++shown >= wakes) done.abort();
    },
  });
  io.log(`OpenEPaperLink access point on ${ap.url} for ${tags.map((t) => t.mac).join(', ')}; glass in ${outDir}`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
    done.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await ap.close();
  return shown > 0 && (last as OeplUpload | null)?.outcome.kind === 'shown' ? 0 : 1;
}
