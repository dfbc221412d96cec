import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { packageRoot } from '../shared/package-root.js';
import { ControllerSchema, controllerIssues, type ControllerFamily } from './panel-controller.js';
import { PanelProfileError } from './panel-profile-error.js';

/**
 * Panel profiles: data in display/panels/<id>.json, validated here.
 *
 * `width` x `height` is the panel as it is usually named and mounted at rotation 0 (800x480, 296x128).
 * `native_rotation` turns that picture clockwise into the controller's RAM order (a 2.9" panel's RAM is
 * 128 columns by 296 rows and holds the picture turned a quarter counter-clockwise, as Waveshare's driver writes
 * it: 270). `palette` is in the order of the panel's native values: the raw encoder maps
 * a palette index through each framebuffer plane's `values`. `controller` (panel-controller.ts) says which driver,
 * simulator model and board the panel takes: everything that lists panels by what drives them reads it from here.
 */

const hexColour = z.string().regex(/^#[0-9a-f]{6}$/, 'must be a lower-case #rrggbb colour');

const PaletteEntrySchema = z
  .object({
    name: z.string().min(1),
    /** The colour written to files (PNG palette or grey level). */
    rgb: hexColour,
    /** The measured ink colour, when the real ink is duller than `rgb`: colour matching and dithering use it. */
    ink: hexColour.optional(),
  })
  .strict();

const PlaneSchema = z
  .object({
    name: z.string().min(1),
    bits_per_pixel: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8)]),
    /** The native value of each palette index in this plane. */
    values: z.array(z.number().int().min(0).max(255)),
  })
  .strict();

const PanelProfileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    diagonal_in: z.number().positive(),
    /** Pixels per inch of the panel (the type scale turns arc minutes at a viewing distance into px with it). */
    ppi: z.number().positive().optional(),
    native_rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
    colour: z.enum(['grey', 'colour']),
    /** Bits a pixel of the panel's own data (1 = 2 levels, 2 = 4 greys, 3 = 8 greys, 4 = 16 greys or 7 colours). */
    bit_depth: z.number().int().min(1).max(8),
    palette: z.array(PaletteEntrySchema).min(2).max(256),
    refresh: z
      .object({
        full_ms: z.number().int().positive(),
        fast_full_ms: z.number().int().positive().nullable(),
        partial: z.boolean(),
        partial_ms: z.number().int().positive().nullable(),
        /** Firmware forces a full refresh every N updates (1 = every update is full). */
        full_every: z.number().int().positive(),
      })
      .strict(),
    png: z
      .object({
        colour_type: z.enum(['grey', 'indexed']),
        bit_depth: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8)]),
      })
      .strict(),
    /** Whether a 1-bit BMP is a valid file for this panel (black/white panels only). */
    bmp: z.boolean(),
    framebuffer: z
      .object({
        bit_order: z.literal('msb-first'),
        /** Rows are padded to this many bytes (1: a row starts on a byte). */
        row_align_bytes: z.number().int().positive(),
        planes: z.array(PlaneSchema).min(1),
      })
      .strict(),
    controller: ControllerSchema,
    sources: z.array(z.string()).optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    for (const issue of controllerIssues(p.controller)) ctx.addIssue({ code: 'custom', ...issue });
    const n = p.palette.length;
    if (n > 2 ** p.bit_depth)
      ctx.addIssue({ code: 'custom', path: ['palette'], message: `${n} colours do not fit ${p.bit_depth} bits` });
    p.framebuffer.planes.forEach((plane, i) => {
      if (plane.values.length !== n) {
        ctx.addIssue({
          code: 'custom',
          path: ['framebuffer', 'planes', i, 'values'],
          message: `needs ${n} values, one a palette entry`,
        });
      }
      if (plane.values.some((v) => v >= 2 ** plane.bits_per_pixel)) {
        ctx.addIssue({
          code: 'custom',
          path: ['framebuffer', 'planes', i, 'values'],
          message: 'a value exceeds bits_per_pixel',
        });
      }
    });
    if (p.png.colour_type === 'indexed' && n > 2 ** p.png.bit_depth) {
      ctx.addIssue({ code: 'custom', path: ['png', 'bit_depth'], message: `${n} palette entries need more bits` });
    }
    if (p.png.colour_type === 'grey') {
      const max = 2 ** p.png.bit_depth - 1;
      p.palette.forEach((e, i) => {
        const [r, g, b] = hexToRgb(e.rgb);
        if (r !== g || g !== b)
          ctx.addIssue({
            code: 'custom',
            path: ['palette', i, 'rgb'],
            message: 'a grey PNG needs grey palette entries',
          });
        else if ((r * max) % 255 !== 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['palette', i, 'rgb'],
            message: `grey ${r} is not a level of a ${p.png.bit_depth}-bit PNG`,
          });
        }
      });
    }
    if (p.bmp) {
      const names = p.palette.map((e) => e.rgb).join(',');
      if (names !== '#000000,#ffffff')
        ctx.addIssue({ code: 'custom', path: ['bmp'], message: 'BMP needs a black, white palette' });
    }
  });

export type PanelProfile = z.infer<typeof PanelProfileSchema>;

/** The profile's `ppi`, else what its size and diagonal give. */
export function ppiOf(panel: Pick<PanelProfile, 'width' | 'height' | 'diagonal_in' | 'ppi'>): number {
  return panel.ppi ?? Math.hypot(panel.width, panel.height) / panel.diagonal_in;
}

export function hexToRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function panelsDir(): string {
  return join(packageRoot(), 'display', 'panels');
}

/** The file of a panel's profile: display/panels/<id>.json of the package. */
export function panelFile(id: string): string {
  return join(panelsDir(), `${id}.json`);
}

/** The ids of every profile in display/panels/, sorted. */
export function listPanelIds(): string[] {
  return readdirSync(panelsDir())
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The ids of the panels a driver of ours can drive on the Pi's header (`controller.pi_header`), sorted. */
export function attachablePanelIds(): string[] {
  return listPanelIds().filter((id) => loadPanel(id).controller.pi_header);
}

/** The ids of the panels of one controller family, sorted. */
export function panelIdsOfFamily(family: ControllerFamily): string[] {
  return listPanelIds().filter((id) => loadPanel(id).controller.family === family);
}

const cache = new Map<string, PanelProfile>();

/** Reads and validates display/panels/<id>.json; E_PANEL_PROFILE names the file and the key of each problem. */
export function loadPanel(id: string): PanelProfile {
  const hit = cache.get(id);
  if (hit) return hit;
  const ids = listPanelIds();
  if (!ids.includes(id)) {
    throw new PanelProfileError(`unknown panel "${id}"; available panels: ${ids.join(', ')}`);
  }
  const profile = readPanelFile(panelFile(id), id);
  cache.set(id, profile);
  return profile;
}

/** Reads and validates one profile file, whose `id` must be `id` (its file name). */
export function readPanelFile(file: string, id: string): PanelProfile {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PanelProfileError(`panel "${id}": ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = PanelProfileSchema.safeParse(data);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error).join('; ');
    throw new PanelProfileError(`panel "${id}": ${file} is not a valid profile: ${problems}`);
  }
  if (parsed.data.id !== id)
    throw new PanelProfileError(`panel "${id}": ${file}: id: says "${parsed.data.id}", the file name says "${id}"`);
  return parsed.data;
}
