import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { AddonOptionsSchema } from '../../src/config/addon-options.js';
import { listPanelIds } from '../../src/panels/panels.js';

/**
 * The Home Assistant add-on folder (config/home-assistant/) against the rules the Supervisor applies when it reads an
 * add-on repository: the add-on's config.yaml, build.yaml and translations, the option schema's type grammar, and the
 * form's default options against that schema. The rules are written down here from the Supervisor's add-on
 * configuration documentation and its validators (supervisor/addons/validate.py, supervisor/addons/options.py):
 * a manifest that breaks one is skipped by the Supervisor, and the add-on never appears in the store.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADDON = path.join(ROOT, 'config/home-assistant/outfit_display');
const readYaml = (file: string): unknown => parse(readFileSync(file, 'utf8'));
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const ARCHES = ['armhf', 'armv7', 'aarch64', 'amd64', 'i386'];
const STARTUP = ['initialize', 'system', 'services', 'application', 'once'];
const BOOT = ['auto', 'manual', 'manual_only'];
const SLUG = /^[-_.A-Za-z0-9]+$/;
const MAP_ENTRY =
  /^(data|config|ssl|addons|backup|share|media|homeassistant_config|all_addon_configs|addon_config)(?::(rw|ro))?$/;
const SERVICE = /^(mqtt|mysql):(provide|want|need)$/;
const DOCKER_PORT = /^\d+(?:\/tcp|\/udp)?$/;
const WATCHDOG = /^(?:https?|\[PROTO:\w+\]|tcp):\/\/\[HOST\]:(\[PORT:\d+\]|\d+).*$/;
const BUILD_IMAGE = /^([a-zA-Z\-.:\d{}]+\/)*?([-\w{}]+)\/([-\w{}]+)(:[.\-\w{}]+)?$/;
/** One schema element (the Supervisor's RE_SCHEMA_ELEMENT): a trailing ? makes it optional. No negative bounds. */
const ELEMENT = new RegExp(
  '^(?:|bool|email|url|port|device(?:\\((?<filter>subsystem=[a-z]+)\\))?' +
    '|str(?:\\((?<s_min>\\d+)?,(?<s_max>\\d+)?\\))?|password(?:\\((?<p_min>\\d+)?,(?<p_max>\\d+)?\\))?' +
    '|int(?:\\((?<i_min>\\d+)?,(?<i_max>\\d+)?\\))?|float(?:\\((?<f_min>[\\d.]+)?,(?<f_max>[\\d.]+)?\\))?' +
    '|match\\((?<match>.*)\\)|list\\((?<list>.+)\\))\\??$',
);
const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const isPort = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;

/** The manifest's problems, each naming its key (the Supervisor's _SCHEMA_ADDON_CONFIG, the keys we use). */
function manifestProblems(c: Obj): string[] {
  const p: string[] = [];
  for (const k of ['name', 'version', 'slug', 'description'] as const) {
    if (typeof c[k] !== 'string' || c[k] === '') p.push(`${k}: required text`);
  }
  if (typeof c.slug === 'string' && !SLUG.test(c.slug)) p.push('slug: only letters, digits, - _ .');
  if (!Array.isArray(c.arch) || c.arch.length === 0 || !c.arch.every((a) => ARCHES.includes(a as string)))
    p.push(`arch: a list of ${ARCHES.join(', ')}`);
  if (c.url !== undefined && (typeof c.url !== 'string' || !URL.canParse(c.url))) p.push('url: not a URL');
  if (c.startup !== undefined && !STARTUP.includes(c.startup as string))
    p.push(`startup: one of ${STARTUP.join(', ')}`);
  if (c.boot !== undefined && !BOOT.includes(c.boot as string)) p.push(`boot: one of ${BOOT.join(', ')}`);
  for (const k of ['init', 'ingress', 'hassio_api', 'host_network'])
    if (c[k] !== undefined && typeof c[k] !== 'boolean') p.push(`${k}: true or false`);
  if (c.ingress_port !== undefined && !isPort(c.ingress_port) && c.ingress_port !== 0) p.push('ingress_port: a port');
  if (c.map !== undefined && (!Array.isArray(c.map) || !c.map.every((m) => typeof m === 'string' && MAP_ENTRY.test(m))))
    p.push('map: entries like addon_config:rw');
  if (
    c.services !== undefined &&
    (!Array.isArray(c.services) || !c.services.every((s) => typeof s === 'string' && SERVICE.test(s)))
  )
    p.push('services: entries like mqtt:want');
  for (const k of ['ports', 'ports_description'] as const) {
    if (c[k] === undefined) continue;
    if (!isObj(c[k])) p.push(`${k}: a mapping`);
    else
      for (const [port, v] of Object.entries(c[k])) {
        if (!DOCKER_PORT.test(port)) p.push(`${k}.${port}: like 8321/tcp`);
        if (k === 'ports' && v !== null && !isPort(v)) p.push(`ports.${port}: a port or null`);
        if (k === 'ports_description' && typeof v !== 'string') p.push(`ports_description.${port}: text`);
      }
  }
  if (c.watchdog !== undefined && !WATCHDOG.test(text(c.watchdog)))
    p.push('watchdog: like http://[HOST]:[PORT:8321]/healthz');
  if (
    c.timeout !== undefined &&
    !(Number.isInteger(c.timeout) && (c.timeout as number) >= 10 && (c.timeout as number) <= 300)
  )
    p.push('timeout: 10..300');
  if (c.options !== undefined && !isObj(c.options)) p.push('options: a mapping');
  if (c.schema !== undefined && c.schema !== false) p.push(...schemaProblems(c.schema, 'schema', 0));
  return p;
}

/** The schema: elements, a list of one element or mapping, or a mapping; nested at most two deep (the docs). */
function schemaProblems(node: unknown, where: string, depth: number): string[] {
  if (typeof node === 'string') return ELEMENT.test(node) ? [] : [`${where}: "${node}" is not a schema type`];
  if (depth > 2) return [`${where}: nested deeper than two`];
  if (Array.isArray(node)) {
    if (node.length !== 1 || Array.isArray(node[0])) return [`${where}: a list holds exactly one element or mapping`];
    return schemaProblems(node[0], `${where}[0]`, depth + 1);
  }
  if (isObj(node)) return Object.entries(node).flatMap(([k, v]) => schemaProblems(v, `${where}.${k}`, depth + 1));
  return [`${where}: a type, a list or a mapping`];
}

/** Options against the schema, as the Supervisor's AddonOptions checks them (devices aside: none here). */
function optionProblems(schema: unknown, value: unknown, where: string): string[] {
  if (Array.isArray(schema)) {
    if (!Array.isArray(value)) return [`${where}: a list`];
    return value.flatMap((v, i) => optionProblems(schema[0], v, `${where}[${i}]`));
  }
  if (isObj(schema)) {
    if (!isObj(value)) return [`${where}: a mapping`];
    const p = Object.entries(value).flatMap(([k, v]) =>
      k in schema ? optionProblems(schema[k], v, `${where}.${k}`) : [`${where}.${k}: not in the schema`],
    );
    for (const [k, s] of Object.entries(schema)) {
      const el = Array.isArray(s) ? s[0] : s;
      if (!(k in value) && !(typeof el === 'string' && el.endsWith('?'))) p.push(`${where}.${k}: required`);
    }
    return p;
  }
  const typ = String(schema);
  const m = ELEMENT.exec(typ);
  if (!m?.groups) return [`${where}: unknown type ${typ}`];
  if (value === null || value === undefined) return [`${where}: required`];
  const g = m.groups;
  const within = (n: number, min?: string, max?: string): boolean =>
    (min === undefined || n >= Number(min)) && (max === undefined || n <= Number(max));
  const ok = ((): boolean => {
    if (typ.startsWith('str') || typ.startsWith('password'))
      return within(text(value).length, g.s_min ?? g.p_min, g.s_max ?? g.p_max);
    if (typ.startsWith('int')) return Number.isInteger(Number(value)) && within(Number(value), g.i_min, g.i_max);
    if (typ.startsWith('float')) return Number.isFinite(Number(value)) && within(Number(value), g.f_min, g.f_max);
    if (typ.startsWith('bool')) return typeof value === 'boolean';
    if (typ.startsWith('url')) return URL.canParse(text(value));
    if (typ.startsWith('port')) return isPort(value);
    if (typ.startsWith('match')) return new RegExp(`^(?:${g.match})`).test(text(value));
    if (typ.startsWith('list')) return (g.list ?? '').split('|').includes(text(value));
    if (typ.startsWith('email')) return /^[^@\s]+@[^@\s]+$/.test(text(value));
    return false;
  })();
  return ok ? [] : [`${where}: ${JSON.stringify(value)} is not ${typ}`];
}

/** Translation keys (and a mapping's fields) that the schema lacks; a translation must name each. */
function translationProblems(tr: unknown, schema: Obj, where: string): string[] {
  if (!isObj(tr)) return [`${where}: a mapping`];
  return Object.entries(tr).flatMap(([k, t]) => {
    if (!(k in schema)) return [`${where}.${k}: not in the schema`];
    if (!isObj(t) || typeof t.name !== 'string') return [`${where}.${k}.name: required text`];
    if (t.description !== undefined && t.description !== null && typeof t.description !== 'string')
      return [`${where}.${k}.description: text`];
    const inner = Array.isArray(schema[k]) ? (schema[k] as unknown[])[0] : schema[k];
    if (t.fields === undefined) return isObj(inner) ? [`${where}.${k}.fields: missing for a mapping`] : [];
    return isObj(inner)
      ? translationProblems(t.fields, inner, `${where}.${k}.fields`)
      : [`${where}.${k}.fields: the schema has none`];
  });
}

const config = readYaml(path.join(ADDON, 'config.yaml')) as Obj;
const schema = config.schema as Obj;
const displaySchema = (schema.displays as [Obj])[0];

describe('the add-on manifest (config.yaml)', () => {
  it('passes the Supervisor rules', () => {
    expect(manifestProblems(config)).toEqual([]);
  });

  it('says what the add-on is: our version, the three architectures, the daemon handling its own signals', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(config).toMatchObject({
      version: pkg.version,
      slug: 'outfit_display',
      startup: 'application',
      boot: 'auto',
      init: false,
      ingress: true,
      ingress_port: 8321,
      map: ['addon_config:rw'],
      services: ['mqtt:want'],
      ports: { '8321/tcp': 8321 },
    });
    expect([...(config.arch as string[])].sort()).toEqual(['aarch64', 'amd64', 'armv7']);
  });

  it('has a schema entry for every default option, and the defaults validate against the schema', () => {
    expect(optionProblems(schema, config.options, 'options')).toEqual([]);
  });

  it('offers exactly the panel ids in display/panels/', () => {
    const list = /^list\((.+)\)\??$/.exec(String(displaySchema.panel))?.[1]?.split('|');
    expect([...(list ?? [])].sort()).toEqual(listPanelIds());
  });

  it('asks for what the converter takes, key by key (src/config/addon-options.ts)', () => {
    expect(Object.keys(schema).sort()).toEqual(Object.keys(AddonOptionsSchema.shape).sort());
    expect(Object.keys(displaySchema).sort()).toEqual(
      Object.keys(AddonOptionsSchema.shape.displays.element.shape).sort(),
    );
  });
});

describe('the rules themselves', () => {
  it('take the type grammar the Supervisor takes, and refuse what it refuses', () => {
    for (const ok of [
      'str',
      'str?',
      'bool',
      'int(0,)?',
      'int(,5)',
      'float',
      'float(0.5,2)',
      'email',
      'url',
      'password',
      'port',
      'match(^[a-z]+$)',
      'list(a|b)?',
      'device',
      'device(subsystem=tty)',
    ]) {
      expect(schemaProblems(ok, 's', 0), ok).toEqual([]);
    }
    // float(-90,90) is refused: the Supervisor's bounds are digits and dots only (why lat/lon are plain float).
    for (const bad of ['float(-90,90)', 'string', 'int(a,b)', 'list()', 'str??'])
      expect(schemaProblems(bad, 's', 0), bad).toHaveLength(1);
    expect(schemaProblems({ a: [{ b: ['str'] }] }, 's', 0)).toEqual(['s.a[0].b: nested deeper than two']);
  });

  it('find a missing required option, a value out of range, an unknown option, a bad manifest key', () => {
    const s = { n: 'int(1,10)', o: 'str?', l: [{ id: 'match(^[a-z]+$)', k: 'list(x|y)' }] };
    expect(optionProblems(s, { n: 11, l: [{ id: 'A1', k: 'z' }], extra: 1 }, 'o')).toEqual([
      'o.n: 11 is not int(1,10)',
      'o.l[0].id: "A1" is not match(^[a-z]+$)',
      'o.l[0].k: "z" is not list(x|y)',
      'o.extra: not in the schema',
    ]);
    expect(optionProblems(s, { l: [] }, 'o')).toEqual(['o.n: required']);
    expect(
      manifestProblems({
        ...config,
        slug: 'outfit display',
        arch: ['x86'],
        map: ['config:rwx'],
        services: ['mqtt:use'],
      }),
    ).toEqual([
      'slug: only letters, digits, - _ .',
      `arch: a list of ${ARCHES.join(', ')}`,
      'map: entries like addon_config:rw',
      'services: entries like mqtt:want',
    ]);
  });
});

describe('the add-on build (build.yaml) and translations (translations/en.yaml)', () => {
  it('builds every architecture from a Debian bookworm base image', () => {
    const build = readYaml(path.join(ADDON, 'build.yaml')) as { build_from: Record<string, string> };
    expect(Object.keys(build.build_from).sort()).toEqual([...(config.arch as string[])].sort());
    for (const [arch, image] of Object.entries(build.build_from)) {
      expect(ARCHES, arch).toContain(arch);
      expect(image, arch).toMatch(BUILD_IMAGE);
      expect(image, arch).toMatch(/debian:bookworm$/);
    }
  });

  it('names and describes every option, and translates only what the schema has', () => {
    const tr = readYaml(path.join(ADDON, 'translations/en.yaml')) as { configuration: Obj; network: Obj };
    expect(translationProblems(tr.configuration, schema, 'configuration')).toEqual([]);
    expect(Object.keys(tr.configuration).sort()).toEqual(Object.keys(schema).sort());
    const fields = (tr.configuration.displays as { fields: Obj }).fields;
    expect(Object.keys(fields).sort()).toEqual(Object.keys(displaySchema).sort());
    for (const t of [...Object.values(tr.configuration), ...Object.values(fields)] as Obj[])
      expect(t.description).toEqual(expect.any(String));
    expect(Object.keys(tr.network)).toEqual(Object.keys(config.ports as Obj));
    expect(translationProblems({ nope: { name: 'x' } }, schema, 'c')).toEqual(['c.nope: not in the schema']);
  });

  it('has the image the Supervisor builds: BUILD_FROM, a health check, SIGTERM', () => {
    const file = readFileSync(path.join(ROOT, 'Containerfile'), 'utf8');
    expect(file).toMatch(/^ARG BUILD_FROM/m);
    expect(file).toMatch(/^FROM \$\{BUILD_FROM\}$/m);
    expect(file).toMatch(/^HEALTHCHECK /m);
    expect(file).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(readYaml(path.join(ROOT, 'config/home-assistant/repository.yaml'))).toMatchObject({
      name: expect.any(String),
      url: expect.any(String),
    });
  });
});
