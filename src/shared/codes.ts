/**
 * Every error (E_…) and warning (W_…) code that the daemon, its commands and the firmware simulator write: in the log
 * (`err.code`, `code`), on the status page, in `state.json`, `/healthz` and the Home Assistant diagnostics. Their
 * spelling is a contract (people grep logs for them, automations match them, tests assert them), so a code is never
 * renamed, only added. docs/reference/errors.md lists them all, generated from this file (`npm run docs:errors`;
 * a `// comment` line above a code starts a group there); test/house/codes.test.ts checks that every code literal in
 * src/ and display/ is here, that every code here is used, and that docs/reference/errors.md is up to date.
 *
 * A code is spelt here and nowhere else as one of a set: where a part handles several codes together (its error
 * class's codes, the refusals it counts), each of them names the part's set here (`set`), and the part takes the
 * set's type (`CodeIn<'api'>`); test/house/codes.test.ts fails a list of codes written out elsewhere in src/ or
 * display/. One code at its use site is checked by type (`'W_X' satisfies WarningCode`), so a code that is not
 * registered does not compile. Import this file with `import type` where only the types are needed: then the
 * meanings stay out of the bundle.
 */

type CodeKind = 'error' | 'warning';

/** The sets of codes a part handles together, each named for the part (src/<folder>, or what in it). */
export type CodeSet =
  /** A failed call to the outfit service: ApiError's codes (src/api/errors.ts). */
  | 'api'
  /** A secret that cannot be used, or should not be so (src/config/secrets.ts). */
  | 'secret'
  /** The state folder: StoreError's codes and the answer not taken at start (src/store/store-error.ts). */
  | 'state'
  /** A frame file not written: OutputError's (src/files/output-error.ts). */
  | 'output'
  /** The budget's warnings about the plan and the ledger (src/budget/messages.ts). */
  | 'budget'
  /** The frame not drawn: RenderError's (src/render/render-process.ts). */
  | 'render'
  /** What the embedded broker refuses a client, each counted (src/mqtt/broker/refusal.ts). */
  | 'broker-refusal'
  /** The HTTP requests refused as a device's or a stranger's, logged at most so often (src/log/refusal-log.ts). */
  | 'http-refusal'
  /** The Home Assistant Supervisor's MQTT service not found at start (src/config/supervisor-mqtt.ts). */
  | 'supervisor'
  /** A picture an OpenEPaperLink access point would not take: OeplError's (src/oepl/oepl-error.ts). */
  | 'oepl'
  /** A panel on the Pi's header: EpdError's (src/epd/epd-error.ts). */
  | 'epd';

interface CodeEntry {
  /** `error`: a failure (`E_…`, logged as `err`); `warning`: the daemon goes on (`W_…`, logged as `code`). */
  kind: CodeKind;
  /** The set a part handles the code in, if any. */
  set?: CodeSet;
  /** What happened, in one line. */
  meaning: string;
}

export const CODES = {
  // The outfit service (src/api)
  E_INVALID_REQUEST: {
    kind: 'error',
    set: 'api',
    meaning: 'the request breaks the spec (lat, lon, unit, gender, base_url): not sent, nothing spent',
  },
  E_KEY_REJECTED: {
    kind: 'error',
    set: 'api',
    meaning: 'the service did not accept the API key (401, or a 403 not about credits)',
  },
  E_CREDITS_EXHAUSTED: {
    kind: 'error',
    set: 'api',
    meaning: "the service's account is out of credits (402, or a 403 that names credits)",
  },
  E_RATE_LIMITED: { kind: 'error', set: 'api', meaning: 'the service asked to wait (429, Retry-After)' },
  E_SERVICE: { kind: 'error', set: 'api', meaning: 'the service (or a proxy in front of it) failed: 5xx' },
  E_HTTP: { kind: 'error', set: 'api', meaning: 'another non-2xx status (400, 404, 415, …)' },
  E_TIMEOUT: { kind: 'error', set: 'api', meaning: 'sent, and no complete answer within the response timeout' },
  E_CONNECT: {
    kind: 'error',
    set: 'api',
    meaning: 'the request never reached the service (refused, DNS, no route, TLS handshake): nothing billed',
  },
  E_NETWORK: { kind: 'error', set: 'api', meaning: 'the connection broke after the request may have been written' },
  E_BAD_RESPONSE: {
    kind: 'error',
    set: 'api',
    meaning: 'a 2xx whose body is not JSON, or lacks `outfit` or the `weather` object',
  },
  E_ABORTED: { kind: 'error', set: 'api', meaning: 'the call was aborted: the daemon is stopping' },
  W_RESPONSE_SHAPE: {
    kind: 'warning',
    meaning: 'an answer was taken although a listed field was missing, of another type or form',
  },
  W_RESPONSE_TRIMMED: {
    kind: 'warning',
    meaning: 'an answer was taken with a text cut or a field dropped: over what we store and publish',
  },

  // The config and the secrets (src/config, src/i18n)
  E_CONFIG: {
    kind: 'error',
    meaning: 'the config (or a locale file, an environment variable, the add-on options) cannot be used',
  },
  W_LOCALE_LABELS_MISSING: {
    kind: 'warning',
    meaning: 'a locale file lacks some labels: they come from its language or English',
  },
  W_MQTT_SERVICE_NONE: {
    kind: 'warning',
    set: 'supervisor',
    meaning: 'the Home Assistant Supervisor offers no MQTT service: running without MQTT',
  },
  W_SUPERVISOR_UNREACHABLE: {
    kind: 'warning',
    set: 'supervisor',
    meaning: 'the Home Assistant Supervisor did not answer usefully: running without MQTT',
  },
  E_SECRET_MISSING: {
    kind: 'error',
    set: 'secret',
    meaning: 'no API key for a real service, a TRMNL device without a token, or mqtt.username without a password',
  },
  E_SECRET_UNREADABLE: { kind: 'error', set: 'secret', meaning: 'a secret file cannot be opened or read' },
  E_SECRET_NOT_A_FILE: {
    kind: 'error',
    set: 'secret',
    meaning: 'a secret path is a folder, FIFO or device, not a regular file',
  },
  E_SECRET_TOO_LARGE: { kind: 'error', set: 'secret', meaning: 'a secret file is over 4096 bytes (refused unread)' },
  E_SECRET_ENCODING: { kind: 'error', set: 'secret', meaning: 'a secret is not UTF-8 text' },
  E_SECRET_EMPTY: { kind: 'error', set: 'secret', meaning: 'a secret is nothing but whitespace' },
  E_SECRET_CHARACTERS: {
    kind: 'error',
    set: 'secret',
    meaning: 'a secret holds a line break, tab, other whitespace or control character',
  },
  E_SECRET_TOO_SHORT: { kind: 'error', set: 'secret', meaning: 'a TRMNL token of fewer than 8 characters' },
  W_SECRET_READABLE: {
    kind: 'warning',
    set: 'secret',
    meaning: 'a secret file is readable by every user on the machine',
  },
  W_KEY_PREFIX: { kind: 'warning', set: 'secret', meaning: 'the API key does not start with sk_live_' },

  // The process (src/shared, src/cli, src/daemon)
  E_NATIVE_ADDON: {
    kind: 'error',
    meaning: "canvas's native addon was built for another Node (libnode): loading it would crash",
  },
  E_STOP_TIMEOUT: { kind: 'error', meaning: 'a stop did not finish within 20 s of the signal: exit 1 anyway' },
  W_STOP_LINGERING: { kind: 'warning', meaning: 'stopped, but something still held the process: exited anyway' },
  W_STOP_START_HELD: {
    kind: 'warning',
    meaning: 'a stop came while the start (or a reload) still waited: stopped without it',
  },
  W_SYSTEMD_NOTIFY: { kind: 'warning', meaning: 'systemd-notify failed' },

  // The display's state, frames and publishers (src/store, src/publish, src/daemon)
  E_STATE_WRITE: { kind: 'error', set: 'state', meaning: 'a file in state_dir cannot be written' },
  E_STATE_READ: {
    kind: 'error',
    set: 'state',
    meaning:
      "a display's last good answer in state_dir could not be read back at start (not JSON, invalid, too large, unreadable)",
  },
  E_OUTPUT_WRITE: { kind: 'error', set: 'output', meaning: 'a frame file in output_dir cannot be written' },
  E_PUBLISH: { kind: 'error', meaning: 'a publisher failed with an error that has no code of its own' },
  W_STATE_IGNORED: {
    kind: 'warning',
    set: 'state',
    meaning:
      'a last good answer could not be used at start (dated in the future, or older than the purchase the ledger records)',
  },
  W_REFRESH_REFUSED: {
    kind: 'warning',
    meaning: 'a refresh press that cannot run (no reserve, too soon, refused by the governor)',
  },

  // The budget, the governor and the schedule (src/budget)
  W_OVER_BUDGET: {
    kind: 'warning',
    set: 'budget',
    meaning: 'the schedules need more calls or credits than the budget allows',
  },
  W_AUTO_DOES_NOT_FIT: {
    kind: 'warning',
    set: 'budget',
    meaning: 'even the sparsest automatic schedule does not fit the budget',
  },
  W_RATE_PEAK: {
    kind: 'warning',
    set: 'budget',
    meaning: 'more requests can fall due in one minute than the rate limit',
  },
  W_CLOCK_UNTRUSTED: {
    kind: 'warning',
    set: 'budget',
    meaning: 'the wall clock is not trusted (before the build date, or stepped back)',
  },
  W_LEDGER_UNREADABLE: {
    kind: 'warning',
    set: 'budget',
    meaning: 'the credit ledger could not be read: the day counted as spent',
  },
  W_LEDGER_FUTURE: {
    kind: 'warning',
    set: 'budget',
    meaning: 'the credit ledger holds a time later than the clock allows',
  },
  W_PAID_REQUEST_CUT: {
    kind: 'warning',
    set: 'budget',
    meaning: 'a paid request was cut off by a stop or crash: a failure, waited out before buying',
  },
  W_CREDITS_EXHAUSTED: {
    kind: 'warning',
    set: 'budget',
    meaning: "the service's account is out of credits: asked again hourly",
  },
  W_KEY_REJECTED: {
    kind: 'warning',
    set: 'budget',
    meaning: 'the API key was rejected: no request until a restart with a new key',
  },
  W_BUDGET_EXHAUSTED: { kind: 'warning', meaning: 'a cycle deferred: the credit budget is used up' },
  W_BUDGET_STATUS_UNAVAILABLE: {
    kind: 'warning',
    meaning: "the budget's figures could not be read for the diagnostics",
  },
  W_CLOCK_STEPPED: { kind: 'warning', meaning: 'the wall clock jumped; the schedule follows it' },
  W_TICK_SKIPPED: { kind: 'warning', meaning: "a tick came while the display's previous cycle still ran" },
  W_PURCHASE_HELD: {
    kind: 'warning',
    meaning: "a display's purchase held: its quiet hours, or everyone it dresses is away (the reason says which)",
  },
  W_SCHEDULE_RARE: {
    kind: 'warning',
    set: 'budget',
    meaning: "a display's schedule goes more than a year without firing",
  },

  // The frame (src/render)
  W_GLYPH_MISSING: { kind: 'warning', meaning: 'a sign or symbol no font has: drawn as a box' },
  W_SCRIPT_NO_FONT: {
    kind: 'warning',
    meaning: 'a text in a script no font here has (Japanese without a CJK font): the frame says so in words',
  },
  E_RENDER_FAILED: {
    kind: 'error',
    set: 'render',
    meaning: 'the render process could not draw a frame: the last good frame stays',
  },
  E_RENDER_PROCESS: {
    kind: 'error',
    set: 'render',
    meaning: 'the render process died twice drawing a frame, or could not start: the last good frame stays',
  },
  E_RENDER_TIMEOUT: {
    kind: 'error',
    set: 'render',
    meaning: 'the render process gave no answer in 60 s: killed, the last good frame stays',
  },
  W_RENDER_RESTART: { kind: 'warning', meaning: 'the render process died with frames to draw: they go to a new one' },
  W_RENDER_KILLED: {
    kind: 'warning',
    meaning: 'the render process did not exit when told to go (frozen): killed before a new one starts',
  },

  // MQTT, the client (src/mqtt)
  W_MQTT_UNREACHABLE: { kind: 'warning', meaning: 'the broker is not reachable at start; retrying in the background' },
  W_MQTT_DISCONNECTED: { kind: 'warning', meaning: 'the connection to the broker dropped; reconnecting' },
  W_MQTT_SUBACK_TIMEOUT: {
    kind: 'warning',
    meaning: 'the broker did not answer the subscriptions in time: reconnecting',
  },
  W_MQTT_OUTBOX_FULL: { kind: 'warning', meaning: 'while disconnected, the outbox filled: the oldest topic dropped' },
  W_MQTT_PASSWORD_UNUSED: { kind: 'warning', meaning: 'an MQTT password without mqtt.username: not sent' },
  W_REFRESH_UNKNOWN_DISPLAY: {
    kind: 'warning',
    meaning: 'a refresh press over MQTT for a display that is not configured',
  },
  W_MQTT_MESSAGE_TOO_LARGE: { kind: 'warning', meaning: 'a message from the broker over 256 KiB: skipped unread' },
  W_MQTT_COMMAND_TOO_LARGE: { kind: 'warning', meaning: 'a press or status over 1 KiB on a command topic: ignored' },

  // Each person's own warmth (src/household/warmth-book.ts, the people's MQTT topics)
  W_WARMTH_UNREADABLE: {
    kind: 'warning',
    meaning: 'the warmth file in state_dir could not be read: set aside as .corrupt, every offset starts from 0',
  },
  W_WARMTH_VOTE_IGNORED: {
    kind: 'warning',
    meaning: "a second too_cold / too_warm before the person's next frame: ignored (one vote a frame)",
  },
  W_WARMTH_OFFSET_REFUSED: {
    kind: 'warning',
    meaning: 'a warmth offset set that is not a number of °C: refused, the offset unchanged',
  },
  W_FEEDBACK_UNKNOWN: {
    kind: 'warning',
    meaning: "a payload on a person's feedback topic other than too_cold or too_warm: ignored",
  },
  W_PERSON_UNKNOWN: { kind: 'warning', meaning: 'feedback or an offset for a person not in people: ignored' },

  // MQTT, the embedded broker (src/mqtt/broker)
  E_MQTT_TOO_LARGE: {
    kind: 'error',
    set: 'broker-refusal',
    meaning: 'a packet declares more bytes than its sender may send',
  },
  E_MQTT_MALFORMED: { kind: 'error', set: 'broker-refusal', meaning: 'a packet length of more than 4 bytes' },
  E_MQTT_LOGIN: { kind: 'error', set: 'broker-refusal', meaning: 'a wrong login, or none when one is required' },
  E_MQTT_NOT_ALLOWED: {
    kind: 'error',
    set: 'broker-refusal',
    meaning: "a client writes a topic of the daemon's, a retained press, $SYS, or takes its client id",
  },
  E_MQTT_RETAINED_FULL: {
    kind: 'error',
    set: 'broker-refusal',
    meaning: "other clients' retained messages would take more than 1 MiB",
  },
  E_MQTT_SUBSCRIPTIONS_FULL: {
    kind: 'error',
    set: 'broker-refusal',
    meaning: 'a client (or all together) holds the most subscriptions the broker keeps',
  },
  E_MQTT_FILTER_TOO_LONG: {
    kind: 'error',
    set: 'broker-refusal',
    meaning: 'a topic filter longer than 256 bytes or deeper than 16 levels',
  },
  W_MQTT_PORT_TAKEN: { kind: 'warning', meaning: "the embedded broker's port is taken: another is used" },
  W_MQTT_ANONYMOUS_NETWORK: {
    kind: 'warning',
    meaning: 'the embedded broker listens beyond this machine without a login',
  },

  // HTTP and TRMNL (src/http, src/trmnl)
  W_HTTP_HOST_REFUSED: {
    kind: 'warning',
    set: 'http-refusal',
    meaning: 'a request whose Host names another machine: 421',
  },
  E_HTTP_LISTEN: {
    kind: 'error',
    meaning: 'http.listen cannot be bound: a name that does not resolve, a port in use, an address not on this machine',
  },
  W_HTTP_HOST_DUPLICATE: {
    kind: 'warning',
    set: 'http-refusal',
    meaning: 'a request with more than one Host header: 400',
  },
  W_HTTP_PAIR_REFUSED: {
    kind: 'warning',
    set: 'http-refusal',
    meaning: "a pairing form without the status page's valid form token: 403",
  },
  W_TRMNL_UNKNOWN_DEVICE: {
    kind: 'warning',
    set: 'http-refusal',
    meaning: 'a TRMNL request whose ID is no configured device: 404',
  },
  W_TRMNL_PAIRING_CLOSED: {
    kind: 'warning',
    set: 'http-refusal',
    meaning: '/api/setup from a configured device while its pairing is closed: 404',
  },
  W_TRMNL_TOKEN_MISSING: { kind: 'warning', set: 'http-refusal', meaning: 'a TRMNL request without Access-Token: 401' },
  W_TRMNL_TOKEN_WRONG: {
    kind: 'warning',
    set: 'http-refusal',
    meaning: 'a TRMNL request with a wrong Access-Token: 403',
  },
  W_TRMNL_TOKEN_THROTTLED: {
    kind: 'warning',
    set: 'http-refusal',
    meaning:
      'a TRMNL request from an address past 5 wrong Access-Tokens a minute: 429 with Retry-After, its token not looked at',
  },
  W_TRMNL_LOG_DROPPED: {
    kind: 'warning',
    meaning:
      "a TRMNL device's /api/log over its rate (10 posts, then 1 a minute) or 256 KiB a day: dropped, answered 204 (said once a day)",
  },
  W_PAIRING_FILE: {
    kind: 'warning',
    meaning: '<state_dir>/pairing.json is not JSON, others may write it, or it cannot be updated',
  },
  W_TRMNL_PORTRAIT_PNG: {
    kind: 'warning',
    meaning:
      'a TRMNL device asked for a BMP where its frame cannot be one (portrait, greys, another size): served a PNG',
  },
  W_TRMNL_SCREEN_UNKNOWN: {
    kind: 'warning',
    meaning:
      'a device whose screen no panel profile has: drawn for the largest profile that fits inside it (once a device)',
  },
  W_TRMNL_IMAGE_TOO_LARGE: {
    kind: 'warning',
    meaning:
      "a device's image over its model's byte cap: drawn again in fewer greys, or served as it is when there are none",
  },
  W_DEVICE_SENSORS_CAPPED: {
    kind: 'warning',
    meaning:
      'a device sent more than 32 room-sensor kinds: readings of the others are dropped, no entity made (once a device)',
  },
  W_FIRMWARE_FILE: {
    kind: 'warning',
    meaning:
      'a file of trmnl.firmware.dir (or the folder) cannot be used: unreadable, empty, or its name is no <version>.bin',
  },
  W_FIRMWARE_REFUSED: {
    kind: 'warning',
    meaning:
      'a file of trmnl.firmware.dir that is a symbolic link, no regular file, or over 8 MiB: neither offered nor served',
  },
  W_FIRMWARE_UPDATE_FAILED: {
    kind: 'warning',
    meaning:
      'a TRMNL device came back on another firmware than it was offered: the update failed, not offered again for 24 h',
  },
  W_FIRMWARE_STATE: {
    kind: 'warning',
    meaning: '<state_dir>/firmware-offers.json cannot be read (started without it) or written (kept in memory)',
  },

  // OpenEPaperLink tags (src/oepl)
  E_OEPL_MAC_UNKNOWN: {
    kind: 'error',
    set: 'oepl',
    meaning: 'the OpenEPaperLink access point knows no tag with this MAC (400 "mac not found"): the tag is not fed',
  },
  E_OEPL_PUSH: {
    kind: 'error',
    set: 'oepl',
    meaning:
      'the access point refused a picture (another 4xx or 5xx, or an answer over 64 KiB): not retried until the next frame',
  },
  E_OEPL_UNREACHABLE: {
    kind: 'error',
    set: 'oepl',
    meaning:
      "a tag's pushes have failed for 2 minutes or 3 tries (no answer, resets, 409 busy, timeouts): the tag is not fed until a push is accepted",
  },
  W_OEPL_RETRY: {
    kind: 'warning',
    meaning: 'the access point was busy (409) or could not be reached: the picture is sent again after a backoff',
  },
  W_OEPL_UNCONFIRMED: {
    kind: 'warning',
    meaning:
      'an upload got no whole answer in time: the access point may have the picture, so it is not sent again; a newer one goes after the backoff',
  },
  W_OEPL_STATE: {
    kind: 'warning',
    meaning: '<state_dir>/oepl-pushed.json cannot be read (started without it) or written (kept in memory)',
  },

  // The webhook (src/webhook)
  E_WEBHOOK_POST: {
    kind: 'error',
    meaning:
      "the webhook took no frame (no answer in time, a reset, not 2xx): 5 tries a frame, with backoff; the display's problem until one is taken",
  },

  // The firmware simulator (display/firmware)
  E_SIM_DAY_STALLED: {
    kind: 'error',
    meaning:
      'simulate --day stopped: the daemon or a simulated device stayed busy for a minute of real time while the virtual clock waited',
  },

  // Panel profiles (display/panels, read by src/panels)
  E_PANEL_PROFILE: {
    kind: 'error',
    meaning:
      'a panel profile that does not exist, is not JSON, or breaks the schema (the message names the file and the key)',
  },

  // A panel on the Pi's header (src/epd; the controller models in display/)
  E_PANEL_BUS: {
    kind: 'error',
    set: 'epd',
    meaning: 'no SPI device or GPIO chip, or the bus libraries not installed or built',
  },
  E_PANEL_PERMISSION: { kind: 'error', set: 'epd', meaning: 'the SPI device or the GPIO chip may not be opened' },
  E_PANEL_PIN_BUSY: {
    kind: 'error',
    set: 'epd',
    meaning: 'a GPIO line (or the SPI device) is held by another program',
  },
  E_PANEL_BUSY_TIMEOUT: { kind: 'error', set: 'epd', meaning: "BUSY stayed busy past the controller's timeout" },
  E_PANEL_FRAME: { kind: 'error', set: 'epd', meaning: "a frame of another size or palette than the panel's" },
  E_PANEL_PROTOCOL: { kind: 'error', set: 'epd', meaning: 'a command stream the controller would not take' },
  W_PANEL_STATE: { kind: 'warning', meaning: "the panel's last refresh could not be saved" },
  W_PANEL_CLOSE: { kind: 'warning', meaning: 'the panel could not be put to sleep or released' },
  W_PANEL_BUTTONS_CAPTURE: {
    kind: 'warning',
    meaning: "an attached board's buttons are not read: its bus is a capture file, not the header",
  },
} as const satisfies Record<string, CodeEntry>;

/** Every registered code. */
export type Code = keyof typeof CODES;
/** A registered failure code. */
export type ErrorCode = Extract<Code, `E_${string}`>;
/** A registered warning code. */
export type WarningCode = Extract<Code, `W_${string}`>;
/** The codes of a set: the type a part's error class or list is checked by. */
export type CodeIn<S extends CodeSet> = {
  [C in Code]: (typeof CODES)[C] extends { readonly set: S } ? C : never;
}[Code];

/** The codes of a set, in the registry's order: for tests and tools (in src/ the type is enough, see above). */
export function codesIn<S extends CodeSet>(set: S): CodeIn<S>[] {
  return (Object.keys(CODES) as Code[]).filter((c): c is CodeIn<S> => (CODES[c] as CodeEntry).set === set);
}
