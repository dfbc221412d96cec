import { z } from '../shared/zod.js';
import { coordinateProblem } from '../api/request-rules.js';
import { attachablePanels, isAttachable } from '../epd/drivers/index.js';
import { BOARDS, defaultBoard, resolveButtonPins, resolvePins, type PinMap } from '../epd/pins.js';
import { WebhookSchema } from './webhook-schema.js';
import { FEEDBACK } from '../domain/warmth.js';

/**
 * The configuration file (docs/reference/configuration.md), one zod schema. Its inferred type is the config type.
 * Unknown keys are rejected everywhere (strictObject), so a typo is reported with its key path.
 */

const DISPLAY_ID = /^[a-z0-9_-]+$/;

/**
 * A latitude or longitude, by the same rule the client checks before sending. YAML reads 1e400 as Infinity, which
 * z.number() would only call "not a number": the message says it is too large to represent.
 */
function coordinate(limit: number) {
  return z.unknown().transform((v, ctx): number => {
    const problem = coordinateProblem(v, limit);
    if (problem === null) return v as number;
    if (typeof v !== 'number') ctx.addIssue({ code: 'invalid_type', expected: 'number', input: v });
    else if (Number.isFinite(v))
      ctx.addIssue({ code: 'custom', input: v, message: `must be between -${limit} and ${limit}` });
    else ctx.addIssue({ code: 'custom', input: v, message: problem });
    return z.NEVER;
  });
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * `host:port` that the HTTP server can listen on: the port 0..65535 (0: any free port) and a host in numbers or
 * brackets a real address. The form itself is the regex's job; this says what is wrong within it.
 */
function checkListen(listen: string, ctx: z.RefinementCtx<string>): void {
  const m = /^(?:\[([^\]]*)\]|([^:\s]+)):(\d{1,5})$/.exec(listen);
  if (!m) return;
  const port = Number(m[3]);
  if (port > 65535)
    ctx.addIssue({ code: 'custom', message: `port ${port} is out of range: must be 0..65535 (0: any free port)` });
  const host = m[1] ?? m[2] ?? '';
  // node:net is asked for here, not imported: loading it costs every command that reads a config, and only a config
  // with a listen address needs it (docs/contributing/performance.md).
  const ip = m[1] !== undefined || /^[\d.]+$/.test(host) ? process.getBuiltinModule('node:net').isIP(host) : -1;
  if (ip === 0) ctx.addIssue({ code: 'custom', message: `"${host}" is not an IP address` });
}

const ActiveHours = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/, 'must look like "06:00-23:00"');

/** A daily window in `timezone` ("22:30-06:30" runs past midnight): the household's quiet hours. */
const QuietHours = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'must look like "22:30-06:30" (start-end, 24-hour)')
  .refine((s) => s.slice(0, 5) !== s.slice(6), 'start and end must differ (an empty or whole-day window)');

/**
 * A departure: weekdays (cron's numbers, 0 and 7 Sunday; ranges and lists) and a time, "1-5 07:40", "6,0 10:00"; a
 * time alone is every day (src/time/departures.ts reads it).
 */
const Departure = z
  .string()
  .regex(
    /^(?:[0-7](?:-[0-7])?(?:,[0-7](?:-[0-7])?)* )?([01]\d|2[0-3]):[0-5]\d$/,
    'must look like "1-5 07:40" (weekdays 0-7, 0 and 7 Sunday, then HH:MM) or "07:40" (every day)',
  );

/** Someone the displays dress (docs/guides/household.md). */
export const PersonSchema = z.strictObject({
  /** [a-z0-9_-]+, unique: in topics (`<base>/people/<id>/…`) and the state's `people`. */
  id: z.string().regex(DISPLAY_ID, 'must match [a-z0-9_-]+'),
  /** As shown on the frame and in Home Assistant. */
  name: z.string().min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
  /** Sent as the request's `gender`; "" sends none. */
  gender: z.string().max(30, 'must be at most 30 characters').default(''),
  /** An MQTT topic whose payload is the person's Home Assistant state: "home" is at home, anything else away. */
  presence_topic: z
    .string()
    .min(1)
    .regex(/^[^#+]+$/, 'must not contain MQTT wildcards')
    .optional(),
  /** When the person leaves the house: `auto` schedules buy shortly before. */
  leaves: z.array(Departure).default([]),
});

/** The most people one frame shows (docs/guides/household.md: four columns or rows on a wall panel). */
export const MAX_PEOPLE_PER_DISPLAY = 4;

const Percent = z.number('must be a number').min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100');

/**
 * Change-aware mode (optional per display): each scheduled tick polls GET /weather and buys a new recommendation only
 * when the weather changed enough to change what one wears, or the outfit reached its maximum age.
 */
const ChangeAwareSchema = z.strictObject({
  /** Temperature or feels-like change, in the display's unit (°C or °F), that counts as a change. */
  temp_delta: z.number('must be a number').positive('must be a positive number').default(3),
  /** Rain chance crossing this percentage (either way) counts as a change. */
  rain_threshold_pct: Percent.default(50),
  /** A different conditions text ("Clear" → "Light rain") counts as a change. */
  conditions: z.boolean('must be true or false').default(true),
  /** Day turning to night or back counts as a change. */
  day_night: z.boolean('must be true or false').default(true),
  /** A recommendation older than this is replaced whatever the weather. */
  max_age_minutes: z.number('must be a number').int('must be a whole number').positive('must be positive').default(180),
  /** Only for `plan`'s expected figures: the chance that a poll finds a change. */
  expected_change_pct: Percent.default(25),
});

const Gpio = z
  .number('must be a BCM GPIO number')
  .int('must be a whole number')
  .min(0, 'must be 0..53')
  .max(53, 'must be 0..53');

/**
 * What a device's button does (docs/guides/household.md, "The buttons on the devices"): a refresh, as Home Assistant's
 * button; or a warmth vote, `too_cold` or `too_warm`, for one of its display's people. One union for a TRMNL device's
 * button and an attached board's, each with its own further keys (`extra`).
 */
function buttonSchema<T extends z.ZodRawShape>(extra: T) {
  return z.discriminatedUnion('action', [
    z.strictObject({ action: z.literal('refresh') }).extend(extra),
    z.strictObject({ action: z.literal('vote'), person: z.string(), vote: z.enum(FEEDBACK) }).extend(extra),
  ]);
}

/** An attached board's button: what it does, and its BCM pin where not the board's (src/epd/pins.ts). */
const PanelButtonSchema = buttonSchema({ pin: Gpio.optional() });

/**
 * A panel on this machine's own header (docs/guides/panels.md, "A panel on the Pi"): the daemon drives it over SPI and
 * the GPIO character device, or, with `capture`, writes the command stream to that file instead (no hardware).
 */
export const AttachedSchema = z.strictObject({
  /** Which board: its default pins and SPI clock (src/epd/pins.ts); default from the panel (inky-* → inky). */
  board: z.enum(BOARDS).optional(),
  /** BCM numbers overriding the board's; `pwr` and `cs` may be null (none / the SPI driver's CE0). */
  pins: z
    .strictObject({
      rst: Gpio.optional(),
      dc: Gpio.optional(),
      busy: Gpio.optional(),
      pwr: Gpio.nullable().optional(),
      cs: Gpio.nullable().optional(),
    })
    .default({}),
  spi_device: z
    .string()
    .regex(/^\/dev\/spidev\d+\.\d+$/, 'must be an SPI device such as /dev/spidev0.0')
    .default('/dev/spidev0.0'),
  /** The GPIO chip's label or /dev path; default: the Pi header's (pinctrl-bcm2711, pinctrl-rp1, ...). */
  gpio_chip: z.string().min(1).optional(),
  /** Write the command stream to this file (JSON lines) instead of SPI and GPIO: for tests, support and the demo. */
  capture: z.string().min(1).optional(),
  /** Seconds at least between two refreshes (Waveshare: at least 180 s); several new frames within it make one. */
  min_interval_s: z.number().int('must be a whole number').min(0).max(86_400).default(180),
  /** An unchanged frame is refreshed again after this many hours, to clear ghosting (vendors: at least daily). */
  full_refresh_hours: z
    .number()
    .positive()
    .max(24, 'must be at most 24 (the vendors ask for a refresh at least daily)')
    .default(24),
  /** How long BUSY may stay busy, seconds; default: the driver's (a few times the panel's refresh). */
  busy_timeout_s: z.number().positive().max(600).optional(),
  /** The board's buttons, read while the daemon runs (the Inky Impression's A to D); absent: none are read. */
  buttons: z
    .strictObject({
      a: PanelButtonSchema.optional(),
      b: PanelButtonSchema.optional(),
      c: PanelButtonSchema.optional(),
      d: PanelButtonSchema.optional(),
    })
    .optional(),
});

export const DisplaySchema = z
  .strictObject({
    id: z.string().regex(DISPLAY_ID, 'must match [a-z0-9_-]+'),
    name: z.string().min(1).max(64).optional(),
    lat: coordinate(90),
    lon: coordinate(180),
    unit: z.enum(['metric', 'imperial']).default('metric'),
    gender: z.string().max(30, 'must be at most 30 characters').default(''),
    panel: z.string().min(1).default('waveshare-7in5-v2'),
    rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
    schedule: z.string().min(1).default('auto'),
    active_hours: ActiveHours.optional(),
    change_aware: ChangeAwareSchema.optional(),
    endpoint: z.enum(['recweather', 'recommend']).default('recweather'),
    home_assistant: z.boolean().default(true),
    dither: z.enum(['floyd-steinberg', 'atkinson', 'ordered']).default('floyd-steinberg'),
    /** Labels, dates and numbers on this display's frame; default: the config's `locale` (i18n/config-locales.ts checks the code). */
    locale: z.string().optional(),
    /** A panel on this machine's header that the daemon drives with each new frame. */
    attached: AttachedSchema.optional(),
    /** Whom the display dresses (ids of `people`), instead of `gender`: one outfit each, on one frame. */
    people: z
      .array(z.string())
      .min(1, 'must name at least one person (or leave `people` out)')
      .max(MAX_PEOPLE_PER_DISPLAY, `a frame shows at most ${MAX_PEOPLE_PER_DISPLAY} people`)
      .optional(),
    /** No purchase in this window, and devices sleep through it; default: the top-level `quiet_hours`. */
    quiet_hours: QuietHours.optional(),
  })
  .superRefine((d, ctx) => {
    if (d.attached !== undefined && !isAttachable(d.panel)) {
      ctx.addIssue({
        code: 'custom',
        path: ['attached'],
        message: `no driver for the ${d.panel} panel on the Pi's header; panels that can be attached: ${attachablePanels().join(', ')}`,
      });
    } else if (d.attached?.buttons !== undefined) buttonPinIssues(d.panel, d.attached, ctx);
  });

/** A button's pin: the board's default or its own, never one of the panel's pins or another button's. */
function buttonPinIssues(panel: string, a: z.infer<typeof AttachedSchema>, ctx: z.RefinementCtx): void {
  const board = a.board ?? defaultBoard(panel);
  let panelPins: PinMap;
  try {
    panelPins = resolvePins(board, a.pins);
  } catch {
    // Two of the panel's own roles on one pin: the bus refuses it when it opens, naming both.
    return;
  }
  for (const p of resolveButtonPins(board, panelPins, a.buttons ?? {}).problems)
    ctx.addIssue({ code: 'custom', path: ['attached', 'buttons', p.key, 'pin'], message: p.message });
}

const ApiSchema = z.strictObject({
  base_url: z
    .string()
    .refine(
      (s) => s === 'simulated' || /^https?:\/\/[^/]+(\/.*)?\/v1$/.test(s),
      'must be an http(s) URL ending with /v1, or "simulated"',
    ),
  key_file: z.string().min(1).optional(),
  timeout_s: z.number().positive().max(300).default(20),
  /** Paid requests (POST): from sending to the last byte of the answer; longer, because the answer is written by a model. */
  response_timeout_s: z.number().positive().max(600).default(60),
  connect_timeout_s: z.number().positive().max(120).default(10),
});

const BudgetSchema = z
  .strictObject({
    credits_per_day: z.number().int().nonnegative().optional(),
    credits_per_month: z.number().int().nonnegative().optional(),
    rate_limit_per_minute: z.number().int().positive().max(60_000).default(60),
    weather_credit_cost: z.number().int().nonnegative().default(1),
    refresh_reserve_credits: z.number().int().nonnegative().default(0),
    /** Over budget: run an even share of the ticks (true), or every tick until the budget is spent (false). */
    pace_over_budget: z.boolean().default(true),
  })
  .refine((b) => b.credits_per_day !== undefined || b.credits_per_month !== undefined, {
    message: 'set credits_per_day, credits_per_month, or both',
  })
  // The schedules may spend only what the reserve leaves (budget/spend-gate.ts): a reserve as large as a budget leaves
  // them nothing, and the daemon would never buy on its own.
  .superRefine((b, ctx) => {
    const r = b.refresh_reserve_credits;
    for (const key of ['credits_per_day', 'credits_per_month'] as const) {
      const budget = b[key];
      if (r > 0 && budget !== undefined && r >= budget) {
        ctx.addIssue({
          code: 'custom',
          path: ['refresh_reserve_credits'],
          input: r,
          message: `${r} is not below budget.${key} (${budget}): the schedules could never buy; set it below ${budget}`,
        });
      }
    }
  });

const MqttSchema = z
  .strictObject({
    url: z
      .string()
      .refine(
        (s) => s === 'embedded' || /^mqtts?:\/\/.+/.test(s),
        'must be mqtt://host:port, mqtts://host:port or "embedded"',
      ),
    username: z.string().default(''),
    password_file: z.string().default(''),
    base_topic: z
      .string()
      .regex(/^[^#+]+$/, 'must not contain MQTT wildcards')
      .default('outfit-display'),
    discovery_prefix: z
      .string()
      .regex(/^[^#+]+$/, 'must not contain MQTT wildcards')
      .default('homeassistant'),
    discovery: z.boolean().default(true),
    client_id: z.string().min(1).max(64).optional(),
    ca_file: z.string().optional(),
    cert_file: z.string().optional(),
    key_file: z.string().optional(),
    /** With url "embedded": where its broker listens (default 127.0.0.1:1883, another free port when that is taken). */
    embedded: z
      .strictObject({
        listen: z
          .string()
          .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:1883 or 0.0.0.0:1883')
          .superRefine(checkListen)
          .optional(),
      })
      .optional(),
  })
  .refine((m) => m.embedded === undefined || m.url === 'embedded', {
    message: 'only with url: embedded',
    path: ['embedded'],
  });

const HttpSchema = z.strictObject({
  listen: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:8321')
    .superRefine(checkListen)
    .default('127.0.0.1:8321'),
  /** The address devices use to reach this server, for TRMNL image URLs; default: from the request's Host header. */
  public_url: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, 'must be an absolute http(s) base URL such as http://192.168.1.5:8321')
    .optional(),
  /** Host names a request may give besides this machine's own names and addresses (others get 421). */
  allowed_hosts: z
    .array(
      z
        .string()
        .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)$/, 'must be a host name or address, without port or scheme'),
    )
    .default([]),
});

const TrmnlDeviceSchema = z
  .strictObject({
    mac: z.string().regex(/^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$/, 'must be a MAC address like AA:BB:CC:DD:EE:FF'),
    display: z.string(),
    token_file: z.string().optional(),
    token: z.string().min(8, 'must be at least 8 characters').optional(),
    format: z.enum(['png', 'bmp']).default('png'),
    /** The panel profile its frames are drawn for, whatever the device says of its screen (a profile id). */
    panel: z.string().min(1).optional(),
    /** Whom this device shows (one of its display's `people`); default: each new frame the next of them. */
    person: z.string().optional(),
    /** Offer this device the newest file of trmnl.firmware.dir (opt-in: an update is the owner's choice per device). */
    firmware_updates: z.boolean().default(false),
    /** What its button does; default a refresh. */
    button: buttonSchema({}).optional(),
  })
  // Neither is allowed: the token may come from the systemd credential trmnl-<mac> (src/config/secrets.ts says
  // when none is found at all).
  .refine((d) => d.token_file === undefined || d.token === undefined, {
    message: 'set token_file or token, not both',
  });

/** Self-hosted firmware updates (src/trmnl/firmware-offers.ts); absent: none are offered. */
const TrmnlFirmwareSchema = z.strictObject({
  /** The folder of `<version>.bin` files; relative: beside the config file. */
  dir: z.string().min(1),
  /** Below this charge, and not charging, no update is offered: a download and flash keep the radio on for a minute or more. */
  battery_floor_pct: z.number().min(0).max(100).default(50),
});

/**
 * The access point's base URL: http(s), a host, no more. A login in it (`http://user:password@host`) is refused, its
 * password never repeated: the access point takes none, and a URL is written to logs. A path, a query or a fragment
 * is refused alike: the upload's path is the daemon's.
 */
function checkAccessPoint(url: string, ctx: z.RefinementCtx): void {
  const base = 'must be an absolute http(s) base URL such as http://192.168.1.60, without a path, query or fragment';
  const m = /^https?:\/\/([^/?#\s]*)(.*)$/s.exec(url);
  if (m === null) return void ctx.addIssue({ code: 'custom', message: base });
  if (m[1]!.includes('@')) {
    return void ctx.addIssue({
      code: 'custom',
      message: 'must not carry a login (user:password@host): the access point takes none, so remove it',
    });
  }
  if ((m[2] !== '' && m[2] !== '/') || m[1] === '' || !URL.canParse(url))
    ctx.addIssue({ code: 'custom', message: base });
}

/**
 * OpenEPaperLink (docs/guides/openepaperlink.md): an access point on the owner's network, and the tags it feeds; each
 * tag gets its display's frame drawn for `panel` and pushed to `<access_point>/imgupload` (src/oepl/).
 */
const OpenEPaperLinkSchema = z.strictObject({
  /** The access point's base URL. */
  access_point: z.string().superRefine(checkAccessPoint),
  tags: z
    .array(
      z.strictObject({
        /** The tag's MAC as the access point lists it: 8 bytes, 16 hex digits (0000021EEF5A3B1C). */
        mac: z.string().regex(/^[0-9A-Fa-f]{16}$/, 'must be a tag MAC of 16 hex digits like 0000021EEF5A3B1C'),
        /** The display whose frames the tag shows (a display id). */
        display: z.string(),
        /** The panel profile of the tag's screen (oepl-2in9-bwr, oepl-4in2-bwr, waveshare-7in5-b, inky-impression-7in3, …). */
        panel: z.string().min(1),
        /** Whom this tag shows (one of its display's `people`); default: each new frame the next of them. */
        person: z.string().optional(),
      }),
    )
    .min(1, 'must list at least one tag'),
});

type Entries = (v: unknown) => Array<Record<string, unknown>>;

/**
 * The household's references: unique person ids; a display's `people` name known people, once each, and replace its
 * `gender`; a device's or tag's `person` is one of its display's people.
 */
function householdIssues(root: Record<string, unknown>, entries: Entries, ctx: z.RefinementCtx): void {
  const people = new Map<string, number>();
  entries(root.people).forEach((p, i) => {
    if (typeof p.id !== 'string') return;
    const first = people.get(p.id);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['people', i, 'id'],
        message: `duplicate person id "${p.id}" (also people[${first}].id)`,
      });
    else people.set(p.id, i);
  });
  const dressed = new Map<string, readonly string[]>();
  entries(root.displays).forEach((d, i) => {
    if (!Array.isArray(d.people)) return;
    const ids = d.people.filter((x): x is string => typeof x === 'string');
    if (typeof d.id === 'string') dressed.set(d.id, ids);
    ids.forEach((id, j) => {
      if (!people.has(id))
        ctx.addIssue({
          code: 'custom',
          path: ['displays', i, 'people', j],
          message: `no person with id "${id}" in people`,
        });
      else if (ids.indexOf(id) !== j)
        ctx.addIssue({ code: 'custom', path: ['displays', i, 'people', j], message: `"${id}" is named twice` });
    });
    if (typeof d.gender === 'string' && d.gender !== '')
      ctx.addIssue({
        code: 'custom',
        path: ['displays', i, 'gender'],
        message: 'set `people` or `gender`, not both: each person has their own gender',
      });
  });
  const checkPerson = (item: Record<string, unknown>, path: (string | number)[]): void => {
    if (typeof item.person !== 'string' || typeof item.display !== 'string') return;
    const ids = dressed.get(item.display);
    if (ids === undefined)
      ctx.addIssue({ code: 'custom', path, message: `display "${item.display}" has no \`people\`` });
    else if (!ids.includes(item.person))
      ctx.addIssue({
        code: 'custom',
        path,
        message: `"${item.person}" is not one of display "${item.display}"'s people (${ids.join(', ')})`,
      });
  };
  const trmnl = typeof root.trmnl === 'object' && root.trmnl !== null ? (root.trmnl as Record<string, unknown>) : {};
  entries(trmnl.devices).forEach((dev, i) => checkPerson(dev, ['trmnl', 'devices', i, 'person']));
  // A button that votes names one of the device's display's people.
  entries(trmnl.devices).forEach((dev, i) => {
    const b = dev.button as Record<string, unknown> | undefined;
    if (b?.action === 'vote') checkPerson({ ...dev, person: b.person }, ['trmnl', 'devices', i, 'button', 'person']);
  });
  const oepl =
    typeof root.openepaperlink === 'object' && root.openepaperlink !== null
      ? (root.openepaperlink as Record<string, unknown>)
      : {};
  entries(oepl.tags).forEach((tag, i) => checkPerson(tag, ['openepaperlink', 'tags', i, 'person']));
  // An attached board's button that votes names one of its display's people.
  entries(root.displays).forEach((d, i) => {
    const a = d.attached as
      { buttons?: Record<string, { action?: unknown; person?: unknown } | undefined> } | undefined;
    for (const [key, b] of Object.entries(a?.buttons ?? {}))
      if (b?.action === 'vote')
        checkPerson({ display: d.id, person: b.person }, ['displays', i, 'attached', 'buttons', key, 'person']);
  });
}

export const ConfigSchema = z
  .strictObject({
    api: ApiSchema,
    budget: BudgetSchema,
    timezone: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
      .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    displays: z.array(DisplaySchema).min(1, 'must list at least one display'),
    /** The household (docs/guides/household.md): whom displays with `people` dress. */
    people: z.array(PersonSchema).default([]),
    /** No purchase in this daily window (in `timezone`), and devices sleep through it; a display may set its own. */
    quiet_hours: QuietHours.optional(),
    /** Labels, dates and numbers on the frames (src/i18n/); its form and whether it is known: i18n/config-locales.ts. */
    locale: z.string().default('en'),
    /** The user's own locale files (<code>.yaml); default: locales/ beside the config file. */
    locales_dir: z.string().min(1).optional(),
    mqtt: MqttSchema.optional(),
    http: HttpSchema.optional(),
    trmnl: z
      .strictObject({ devices: z.array(TrmnlDeviceSchema).default([]), firmware: TrmnlFirmwareSchema.optional() })
      .optional(),
    openepaperlink: OpenEPaperLinkSchema.optional(),
    /** A URL that gets each new frame and its state (config/webhook-schema.ts, src/webhook/). */
    webhook: WebhookSchema.optional(),
    output_dir: z.string().min(1).default('/var/lib/outfit-display/frames'),
    state_dir: z.string().min(1).default('/var/lib/outfit-display'),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  // Runs also when other keys have problems (`when`), so that these are reported along with them; the value may then
  // be only partly valid, hence the checks of every shape.
  .superRefine(
    (cfg: unknown, ctx) => {
      const entries = (v: unknown): Array<Record<string, unknown>> =>
        Array.isArray(v)
          ? v.map((e: unknown) => (typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : {}))
          : [];
      const root = typeof cfg === 'object' && cfg !== null ? (cfg as Record<string, unknown>) : {};
      if (!Array.isArray(root.displays)) return;
      const seen = new Map<string, number>();
      entries(root.displays).forEach((d, i) => {
        if (typeof d.id !== 'string') return;
        const first = seen.get(d.id);
        if (first !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['displays', i, 'id'],
            message: `duplicate display id "${d.id}" (also displays[${first}].id)`,
          });
        } else {
          seen.set(d.id, i);
        }
      });
      // Two panels on one SPI device would interleave their command streams: one display per header.
      const buses = new Map<string, number>();
      entries(root.displays).forEach((d, i) => {
        const a =
          typeof d.attached === 'object' && d.attached !== null ? (d.attached as Record<string, unknown>) : null;
        if (a === null || a.capture !== undefined) return;
        const dev = typeof a.spi_device === 'string' ? a.spi_device : '/dev/spidev0.0';
        const first = buses.get(dev);
        if (first !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['displays', i, 'attached'],
            message: `${dev} is already the panel of displays[${first}]: one attached panel per SPI device`,
          });
        } else {
          buses.set(dev, i);
        }
      });
      const trmnl =
        typeof root.trmnl === 'object' && root.trmnl !== null ? (root.trmnl as Record<string, unknown>) : {};
      entries(trmnl.devices).forEach((dev, i) => {
        if (typeof dev.display === 'string' && !seen.has(dev.display)) {
          ctx.addIssue({
            code: 'custom',
            path: ['trmnl', 'devices', i, 'display'],
            message: `no display with id "${dev.display}"`,
          });
        }
      });
      const oepl =
        typeof root.openepaperlink === 'object' && root.openepaperlink !== null
          ? (root.openepaperlink as Record<string, unknown>)
          : {};
      const macs = new Map<string, number>();
      entries(oepl.tags).forEach((tag, i) => {
        if (typeof tag.display === 'string' && !seen.has(tag.display)) {
          ctx.addIssue({
            code: 'custom',
            path: ['openepaperlink', 'tags', i, 'display'],
            message: `no display with id "${tag.display}"`,
          });
        }
        if (typeof tag.mac !== 'string') return;
        const first = macs.get(tag.mac.toUpperCase());
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['openepaperlink', 'tags', i, 'mac'],
            message: `duplicate tag MAC (also openepaperlink.tags[${first}].mac)`,
          });
        else macs.set(tag.mac.toUpperCase(), i);
      });
      householdIssues(root, entries, ctx);
    },
    { when: () => true },
  );

/** The configuration: defaults applied; the loader resolves relative paths against the config file. */
export type Config = z.infer<typeof ConfigSchema>;
export type DisplayConfig = Config['displays'][number];
export type MqttConfig = NonNullable<Config['mqtt']>;
export type AttachedConfig = NonNullable<DisplayConfig['attached']>;
export type ChangeAwareConfig = NonNullable<DisplayConfig['change_aware']>;
export type OpenEPaperLinkConfig = NonNullable<Config['openepaperlink']>;
export type WebhookConfig = NonNullable<Config['webhook']>;
export type PersonConfig = Config['people'][number];
/** What a button does (a TRMNL device's or an attached board's), its pin aside. */
export type ButtonActionConfig = z.infer<ReturnType<typeof buttonSchema<Record<never, never>>>>;
export type TrmnlButtonConfig = ButtonActionConfig;
export type PanelButtonConfig = z.infer<typeof PanelButtonSchema>;
