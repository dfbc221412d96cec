import { z } from 'zod';

/**
 * The configuration file (DESIGN.md "Config"), one zod schema. Its inferred type is the config type.
 * Unknown keys are rejected everywhere (strictObject), so a typo is reported with its key path.
 */

const DISPLAY_ID = /^[a-z0-9_-]+$/;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const ActiveHours = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$/, 'must look like "06:00-23:00"');

const Percent = z.number('must be a number').min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100');

/**
 * Change-aware mode (optional per display): each scheduled tick polls GET /weather and buys a new recommendation only
 * when the weather changed enough to change what one wears, or the outfit reached its maximum age.
 */
export const ChangeAwareSchema = z.strictObject({
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

export const DisplaySchema = z.strictObject({
  id: z.string().regex(DISPLAY_ID, 'must match [a-z0-9_-]+'),
  name: z.string().min(1).max(64).optional(),
  lat: z.number('must be a number').min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90'),
  lon: z
    .number('must be a number')
    .min(-180, 'must be between -180 and 180')
    .max(180, 'must be between -180 and 180'),
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
});

const ApiSchema = z.strictObject({
  base_url: z
    .string()
    .refine(
      (s) => s === 'simulated' || /^https?:\/\/[^/]+(\/.*)?\/v1$/.test(s),
      'must be an http(s) URL ending with /v1, or "simulated"',
    ),
  key_file: z.string().min(1).optional(),
  timeout_s: z.number().positive().max(300).default(20),
  connect_timeout_s: z.number().positive().max(120).default(10),
});

const BudgetSchema = z
  .strictObject({
    credits_per_day: z.number().int().nonnegative().optional(),
    credits_per_month: z.number().int().nonnegative().optional(),
    rate_limit_per_minute: z.number().int().positive().max(60_000).default(60),
    weather_credit_cost: z.number().int().nonnegative().default(1),
    refresh_reserve_credits: z.number().int().nonnegative().default(0),
  })
  .refine((b) => b.credits_per_day !== undefined || b.credits_per_month !== undefined, {
    message: 'set credits_per_day, credits_per_month, or both',
  });

const MqttSchema = z.strictObject({
  url: z
    .string()
    .refine((s) => s === 'embedded' || /^mqtts?:\/\/.+/.test(s), 'must be mqtt://host:port, mqtts://host:port or "embedded"'),
  username: z.string().default(''),
  password_file: z.string().default(''),
  base_topic: z
    .string()
    .regex(/^[^#+]+$/, 'must not contain MQTT wildcards')
    .default('outfit-display'),
  discovery_prefix: z.string().regex(/^[^#+]+$/, 'must not contain MQTT wildcards').default('homeassistant'),
  discovery: z.boolean().default(true),
  client_id: z.string().min(1).max(64).optional(),
  ca_file: z.string().optional(),
  cert_file: z.string().optional(),
  key_file: z.string().optional(),
});

const HttpSchema = z.strictObject({
  listen: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:8321')
    .default('127.0.0.1:8321'),
  /** The address devices use to reach this server, for TRMNL image URLs; default: from the request's Host header. */
  public_url: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, 'must be an absolute http(s) base URL such as http://192.168.1.5:8321')
    .optional(),
});

const TrmnlDeviceSchema = z
  .strictObject({
    mac: z.string().regex(/^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$/, 'must be a MAC address like AA:BB:CC:DD:EE:FF'),
    display: z.string(),
    token_file: z.string().optional(),
    token: z.string().min(8, 'must be at least 8 characters').optional(),
    format: z.enum(['png', 'bmp']).default('png'),
  })
  .refine((d) => (d.token_file === undefined) !== (d.token === undefined), {
    message: 'set exactly one of token_file or token',
  });

export const ConfigSchema = z
  .strictObject({
    api: ApiSchema,
    budget: BudgetSchema,
    timezone: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
      .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    displays: z.array(DisplaySchema).min(1, 'must list at least one display'),
    mqtt: MqttSchema.optional(),
    http: HttpSchema.optional(),
    trmnl: z.strictObject({ devices: z.array(TrmnlDeviceSchema).default([]) }).optional(),
    output_dir: z.string().min(1).default('/var/lib/outfit-display/frames'),
    state_dir: z.string().min(1).default('/var/lib/outfit-display'),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((cfg, ctx) => {
    const seen = new Map<string, number>();
    cfg.displays.forEach((d, i) => {
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
    cfg.trmnl?.devices.forEach((dev, i) => {
      if (!seen.has(dev.display)) {
        ctx.addIssue({
          code: 'custom',
          path: ['trmnl', 'devices', i, 'display'],
          message: `no display with id "${dev.display}"`,
        });
      }
    });
  });

/** The configuration: defaults applied; the loader resolves relative paths against the config file. */
export type Config = z.infer<typeof ConfigSchema>;
export type DisplayConfig = Config['displays'][number];
export type MqttConfig = NonNullable<Config['mqtt']>;
export type ChangeAwareConfig = NonNullable<DisplayConfig['change_aware']>;
