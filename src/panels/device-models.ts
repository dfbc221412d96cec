import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { packageRoot } from '../shared/package-root.js';
import { PanelProfileError } from './panel-profile-error.js';
import { listPanelIds } from './panels.js';

/**
 * The device model table: data in display/panels/device-models.yaml, validated here. The daemon answers a device by
 * its `Model` header from it (src/trmnl/models.ts), and the firmware simulator plays a device from it
 * (display/firmware/sim-models.ts): both sides read the same file, neither owns the other's code.
 */

export type DeviceKind = 'trmnl' | 'byod' | 'kindle';

export interface DeviceModel {
  /** The registry's `name` (TRMNL's `/api/models`, larapaper's seed), as /api/models lists it. */
  name: string;
  /** `Model` header values that mean this screen (the firmware's `include/config.h`), besides `name`. */
  headers: readonly string[];
  label: string;
  /** The panel profile drawn for it (display/panels/<id>.json). */
  panel: string;
  /** The firmware refuses (or crops) a larger download. */
  maxBytes: number;
  /** The registry's kind: a TRMNL board, another maker's board on the TRMNL firmware, a Kindle. */
  kind: DeviceKind;
  /** The registry's palette ids, most colours first. */
  palettes: readonly string[];
}

/** A header value as the daemon compares it: lower case, no spaces around. */
const headerName = z
  .string()
  .min(1)
  .regex(/^[a-z0-9_]+$/, 'must be lower case letters, digits and _ (a Model header value)');

const ModelSchema = z.strictObject({
  name: headerName,
  headers: z.array(headerName).default([]),
  label: z.string().min(1),
  panel: z.string().min(1),
  max_bytes: z.number().int().positive(),
  kind: z.enum(['trmnl', 'byod', 'kindle']),
  palettes: z.array(z.string().min(1)).min(1),
});

const TableSchema = z.strictObject({ models: z.array(ModelSchema).min(1) }).superRefine((t, ctx) => {
  const panels = new Set(listPanelIds());
  const seen = new Map<string, number>();
  t.models.forEach((m, i) => {
    if (!panels.has(m.panel))
      ctx.addIssue({ code: 'custom', path: ['models', i, 'panel'], message: `no panel profile "${m.panel}"` });
    for (const n of [m.name, ...m.headers]) {
      const first = seen.get(n);
      if (first !== undefined && first !== i)
        ctx.addIssue({ code: 'custom', path: ['models', i], message: `"${n}" also names models[${first}]` });
      seen.set(n, i);
    }
  });
});

/** The table's file in the package. */
export function deviceModelsFile(): string {
  return join(packageRoot(), 'display', 'panels', 'device-models.yaml');
}

/** Reads and validates a model table; E_PANEL_PROFILE names the file and the key of each problem. */
export function readDeviceModels(file: string): readonly DeviceModel[] {
  let data: unknown;
  try {
    data = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PanelProfileError(`the device model table ${file} cannot be read as YAML: ${(err as Error).message}`);
  }
  const parsed = TableSchema.safeParse(data);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error).join('; ');
    throw new PanelProfileError(`the device model table ${file} is not valid: ${problems}`);
  }
  return parsed.data.models.map((m) => ({
    name: m.name,
    headers: m.headers,
    label: m.label,
    panel: m.panel,
    maxBytes: m.max_bytes,
    kind: m.kind,
    palettes: m.palettes,
  }));
}

let table: { models: readonly DeviceModel[]; byName: ReadonlyMap<string, DeviceModel> } | null = null;

function loaded(): NonNullable<typeof table> {
  if (table === null) {
    const models = readDeviceModels(deviceModelsFile());
    table = { models, byName: new Map(models.flatMap((m) => [m.name, ...m.headers].map((n) => [n, m] as const))) };
  }
  return table;
}

/** Every model of the table, in its order. */
export function deviceModels(): readonly DeviceModel[] {
  return loaded().models;
}

/** The model a `Model` header value (or a registry name) means, or null. */
export function deviceModel(name: string | null | undefined): DeviceModel | null {
  if (name === null || name === undefined) return null;
  return loaded().byName.get(name.trim().toLowerCase()) ?? null;
}
