import { parseDocument, type ScalarTag } from 'yaml';
import { ACTIONS, COMPONENTS, DISPLAYS, ONLINE_IMAGE, OTA, PIN_MAP, type Kind, type Schema } from './esphome-schema.js';

/** ESPHome's own YAML tags: `!secret NAME` (secrets.yaml) and `!lambda CODE`; we keep what they name. */
export class Secret {
  constructor(readonly name: string) {}
}
export class Lambda {
  constructor(readonly code: string) {}
}
const TAGS: ScalarTag[] = [
  { tag: '!secret', resolve: (s: string) => new Secret(s) },
  { tag: '!lambda', resolve: (s: string) => new Lambda(s) },
];

/** Parse an ESPHome YAML as ESPHome's loader would see its structure; throws on a YAML error. */
export function parseEsphomeYaml(text: string): Record<string, unknown> {
  const doc = parseDocument(text, { customTags: TAGS, prettyErrors: true });
  if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('\n'));
  const v: unknown = doc.toJS();
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a mapping at the top');
  return v as Record<string, unknown>;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Secret) && !(v instanceof Lambda);
const SUBST = /^\$\{[a-z_]+\}|^\$[a-z_]+/;
const DURATION = /^(never|\d+(\.\d+)?(ms|s|min|h|d))$/;

function checkKind(kind: Kind, v: unknown, path: string, out: string[]): void {
  if (typeof v === 'string' && SUBST.test(v) && kind !== 'automation') return;
  if (v instanceof Secret) {
    if (kind !== 'string' && kind !== 'url') out.push(`${path}: !secret where ${JSON.stringify(kind)} is expected`);
    return;
  }
  if (v instanceof Lambda) {
    if (kind === 'duration' || kind === 'url' || kind === 'lambda' || kind === 'string') return;
    out.push(`${path}: !lambda where ${JSON.stringify(kind)} is expected`);
    return;
  }
  if (kind === 'any') return;
  if (kind === 'automation') return checkAutomation(v, path, out);
  if (typeof kind === 'object') {
    if ('enum' in kind) {
      if (!kind.enum.includes(String(v))) out.push(`${path}: ${String(v)} is not one of ${kind.enum.join(', ')}`);
    } else if ('map' in kind) checkMap(kind.map, v, path, out);
    else if (!Array.isArray(v)) out.push(`${path}: a list is expected`);
    else v.forEach((e, i) => checkMap(kind.list, e, `${path}[${i}]`, out));
    return;
  }
  const ok: Record<Exclude<Kind, object | 'any' | 'automation'>, (x: unknown) => boolean> = {
    string: (x) => typeof x === 'string' || typeof x === 'number',
    id: (x) => typeof x === 'string' && /^[a-z_][a-z0-9_]*$/.test(x),
    lambda: (x) => typeof x === 'string',
    int: (x) => Number.isInteger(x),
    bool: (x) => typeof x === 'boolean',
    duration: (x) => typeof x === 'string' && DURATION.test(x),
    bytes: (x) => Number.isInteger(x) || (typeof x === 'string' && /^\d+(kB|B)?$/.test(x)),
    url: (x) => typeof x === 'string' && /^https?:\/\//.test(x),
    pin: (x) =>
      (typeof x === 'string' && /^GPIO\d+$/.test(x)) ||
      Number.isInteger(x) ||
      (isMap(x) && (checkMap(PIN_MAP, x, path, out), true)),
  };
  if (!ok[kind](v)) out.push(`${path}: ${JSON.stringify(v)} is not a ${kind}`);
}

function checkMap(schema: Schema, v: unknown, path: string, out: string[]): void {
  if (!isMap(v)) {
    out.push(`${path}: a mapping is expected`);
    return;
  }
  for (const r of schema.required ?? []) if (!(r in v)) out.push(`${path}.${r}: required`);
  for (const [k, val] of Object.entries(v)) {
    const kind = schema.keys[k];
    if (kind === undefined) out.push(`${path}.${k}: not a key of this component`);
    else checkKind(kind, val, `${path}.${k}`, out);
  }
}

/** An automation: `then:` with a list of actions, or the list itself; each action one key from ACTIONS. */
function checkAutomation(v: unknown, path: string, out: string[]): void {
  let actions: unknown = v;
  if (isMap(v)) {
    for (const k of Object.keys(v))
      if (k !== 'then' && k !== 'priority') out.push(`${path}.${k}: not a key of an automation`);
    actions = v.then;
  }
  if (!Array.isArray(actions)) return void out.push(`${path}: a list of actions is expected`);
  actions.forEach((a, i) => {
    const p = `${path}[${i}]`;
    if (!isMap(a) || Object.keys(a).length !== 1) return void out.push(`${p}: an action is one key`);
    const [name, arg] = Object.entries(a)[0]!;
    const s = ACTIONS[name];
    if (s === undefined) out.push(`${p}.${name}: not an action we know`);
    else if (typeof s === 'string') checkKind(s, arg, `${p}.${name}`, out);
    else checkMap(s, arg, `${p}.${name}`, out);
  });
}

/** Every problem of one ESPHome YAML against the schema, with its key path; [] when it checks. */
export function checkEsphomeConfig(cfg: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(cfg)) {
    if (k === 'substitutions') {
      if (!isMap(v) || Object.values(v).some((x) => typeof x !== 'string' && !(x instanceof Secret)))
        out.push('substitutions: a mapping of strings is expected');
    } else if (k === 'ota') checkKind({ list: OTA }, v, k, out);
    else if (k === 'online_image') checkKind({ list: ONLINE_IMAGE }, v, k, out);
    else if (k === 'globals') checkKind({ list: COMPONENTS.globals! }, v, k, out);
    else if (k === 'display') {
      if (!Array.isArray(v)) out.push('display: a list is expected');
      else
        v.forEach((d, i) => {
          const platform = isMap(d) ? String(d.platform) : '';
          const s = DISPLAYS[platform];
          if (s === undefined) return void out.push(`display[${i}].platform: ${platform} is not a platform we know`);
          checkMap(s, d, `display[${i}]`, out);
          if (isMap(d) && !s.models.includes(String(d.model)))
            out.push(`display[${i}].model: ${String(d.model)} is not a ${platform} model`);
        });
    } else if (COMPONENTS[k] !== undefined) checkMap(COMPONENTS[k], v === null ? {} : v, k, out);
    else out.push(`${k}: not a component we know`);
  }
  return out;
}
