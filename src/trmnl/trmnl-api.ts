import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { sendJson } from '../shared/http-respond.js';
import type { RefusalCode, RefusalLog } from '../log/refusal-log.js';
import { normalizeMac, trmnlDeviceKey } from './mac.js';
import type { TrmnlImage, TrmnlImages } from './images.js';
import { refreshRateFor } from './refresh-rate.js';
import type { TrmnlPairing } from './pairing.js';
import type { Clock } from '../time/clock.js';
import type { ShownView } from '../state/display-views.js';
import type { DeviceBook } from '../state/device-book.js';
import { chooseScreen, modelRegistry, screenSpec, type ScreenSpec, type TrmnlFormat } from './models.js';
import { header, readTrmnlHeaders, type TrmnlHeaders } from './device-headers.js';
import { DeviceLogLimit, receiveDeviceLog } from './device-log.js';
import { TokenThrottle } from './token-throttle.js';
import { FullRefreshPlanner } from './full-refresh.js';
import {
  isButtonWake,
  PRESS_PENDING_REFRESH_S,
  PRESS_WAIT_MS,
  waitForPress,
  type ButtonOutcome,
} from './button-press.js';
import { loadPanel } from '../panels/panels.js';
import type { DeviceWake, FirmwareDecision } from './firmware-offers.js';
import type { TrmnlButtonConfig } from '../config/schema.js';
import type { Feedback } from '../domain/warmth.js';

/**
 * The TRMNL bring-your-own-server device endpoints, as the TRMNL firmware speaks them:
 *   GET /api/setup (and /api/setup/)  ID → api_key (the configured access token), friendly_id, image_url
 *   GET /api/display                  ID + Access-Token → image_url, filename, refresh_rate; telemetry from headers
 *   GET /api/current_screen           ID + Access-Token → the current image_url, filename, refresh_rate; read-only
 *   GET /api/models                   the screens we draw for, in the shape of the TRMNL servers' model registry
 *   POST /api/log                     ID + Access-Token → 204
 *
 * Statuses, as the firmware treats them: an unknown MAC gets 404 (setup: "MAC not registered" screen, then sleep;
 * display/log: an error and the retry ladder), a missing Access-Token 401, a wrong one 403 (both: the retry ladder,
 * credentials kept), a client past five wrong tokens a minute 429 (token-throttle.ts). A device's log is limited
 * per device (device-log.ts). The JSON `status: 500` is never sent: it makes the firmware wipe its credentials and Wi-Fi.
 * Setup hands out a token only while pairing is open for that MAC (pairing.ts); closed, a configured device gets
 * the same 404 as an unknown one, so it sleeps and asks again. Refusals go to the log through a RefusalLog, never one
 * line a request.
 */

/** Seconds the firmware waits for the image URL; under the firmware's 65 s cap. */
export const IMAGE_URL_TIMEOUT_S = 30;

export interface TrmnlDeviceBinding {
  /** `AA:BB:CC:DD:EE:FF` (any case, `:` or `-`). */
  mac: string;
  display: string;
  /** Default png. */
  format?: TrmnlFormat;
  /** The panel profile to draw for, whatever the device says of its screen. */
  panel?: string;
  /** What its button does (config `button`); default a refresh. */
  button?: TrmnlButtonConfig;
  /** The one person of the display's household it shows (config `person`); default the display's frame. */
  person?: string;
}

export interface TrmnlApiDeps {
  devices: readonly TrmnlDeviceBinding[];
  /** Access tokens by MAC (upper case, `:`). */
  tokens: ReadonlyMap<string, string>;
  images: TrmnlImages;
  /** The display's view (its frame, staleness, next update), or null before its first frame. */
  view: (displayId: string) => ShownView | null;
  /** The next update of a display with or without a frame. */
  nextUpdateAt: (displayId: string) => Date | null;
  /** Where each device's wake is recorded (battery, sensors, last seen); none: nothing is kept. */
  book?: DeviceBook;
  /**
   * A press of a device's button (`Update-Source: button`): the same refresh as Home Assistant's button, through
   * the refresh gate and the budget. Resolves when the refresh ended: false when it was refused.
   */
  press?: (displayId: string) => Promise<boolean>;
  /** A warmth vote by a device's button (`button: { action: vote }`); absent: such a press does nothing. */
  vote?: (personId: string, vote: Feedback) => unknown;
  /** How long a wake by the button waits for the refresh before it is answered (default PRESS_WAIT_MS). */
  pressWaitMs?: number;
  /** Dates telemetry and times refresh_rate. */
  clock: Clock;
  /** Seconds added to the time until the next update, for the cycle to finish. Default 30. */
  refreshMarginS?: number;
  /** Whether setup may hand out a device's token now. */
  pairing: TrmnlPairing;
  /** Self-hosted firmware updates (firmware-offers.ts): whether this wake is offered one; absent: never. */
  firmware?: { decide(d: DeviceWake): Promise<FirmwareDecision> };
  /** Where refused requests are logged, limited per source. */
  refusals: RefusalLog;
  logger?: Logger;
}

/** Six hex digits shown on the device's setup screen; derived from the MAC, never from the token. */
function friendlyId(mac: string): string {
  return createHash('sha256').update(`outfit-display:${mac}`).digest('hex').slice(0, 6).toUpperCase();
}

/** Constant-time comparison (hashing first makes the lengths equal and hides the expected length). */
function tokenMatches(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export class TrmnlApi {
  readonly #d: TrmnlApiDeps;
  readonly #fullRefresh = new FullRefreshPlanner();
  /** Devices told their screen is not one of ours (W_TRMNL_SCREEN_UNKNOWN is said once a device). */
  readonly #warnedScreens = new Set<string>();
  readonly #throttle: TokenThrottle;
  readonly #logLimit: DeviceLogLimit;

  constructor(deps: TrmnlApiDeps) {
    this.#d = deps;
    this.#throttle = new TokenThrottle({ clock: deps.clock });
    this.#logLimit = new DeviceLogLimit({ clock: deps.clock });
  }

  #device(mac: string | null): TrmnlDeviceBinding | null {
    if (mac === null) return null;
    return this.#d.devices.find((d) => normalizeMac(d.mac) === mac) ?? null;
  }

  #refuse(req: IncomingMessage, code: RefusalCode, detail: Record<string, string | null>): void {
    this.#d.refusals.refuse(req.socket.remoteAddress, code, detail);
  }

  async setup(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const mac = normalizeMac(header(req, 'id'));
    const dev = this.#device(mac);
    const token = mac === null ? undefined : this.#d.tokens.get(mac);
    // take() closes the window as it grants it: two setups racing for one window cannot both get the token.
    const open = dev !== null && mac !== null && token !== undefined && (await this.#d.pairing.take(mac));
    if (dev === null || mac === null || token === undefined || !open) {
      if (dev !== null && mac !== null && token !== undefined) {
        this.#refuse(req, 'W_TRMNL_PAIRING_CLOSED', { mac, display: dev.display, endpoint: '/api/setup' });
      } else {
        this.#refuse(req, 'W_TRMNL_UNKNOWN_DEVICE', {
          mac: mac ?? header(req, 'id')?.slice(0, 32) ?? null,
          endpoint: '/api/setup',
        });
      }
      // One answer for both, so that setup does not tell which MACs are configured.
      sendJson(req, res, 404, {
        status: 404,
        api_key: null,
        friendly_id: null,
        image_url: null,
        message: 'MAC address not registered, or pairing not open: open pairing on the server (outfit-display pair)',
      });
      return;
    }
    const view = this.#d.view(dev.display);
    const img =
      view === null ? null : await this.#d.images.imageFor(view, this.#spec(dev, readTrmnlHeaders(req), mac, false));
    this.#d.logger?.info(
      { mac, display: dev.display, fw: header(req, 'fw-version')?.slice(0, 40) ?? null },
      'TRMNL device paired',
    );
    sendJson(req, res, 200, {
      status: 200,
      api_key: token,
      friendly_id: friendlyId(mac),
      image_url: img ? imageUrl(base, dev.display, img) : `${base}/trmnl/setup.png`,
      message: `outfit-display: ${dev.display}`,
    });
  }

  /** The device for an authenticated request, or null after answering 429/404/401/403. */
  #authenticate(
    req: IncomingMessage,
    res: ServerResponse,
    what: string,
  ): { mac: string; dev: TrmnlDeviceBinding } | null {
    const retryAfterS = this.#throttle.retryAfterS(req.socket.remoteAddress);
    if (retryAfterS !== null) {
      this.#refuse(req, 'W_TRMNL_TOKEN_THROTTLED', { mac: header(req, 'id')?.slice(0, 32) ?? null, endpoint: what });
      sendJson(
        req,
        res,
        429,
        { status: 429, message: 'too many wrong access tokens from this address: try again later' },
        { 'Retry-After': retryAfterS },
      );
      return null;
    }
    const mac = normalizeMac(header(req, 'id'));
    const dev = this.#device(mac);
    if (mac === null || dev === null) {
      this.#refuse(req, 'W_TRMNL_UNKNOWN_DEVICE', {
        mac: mac ?? header(req, 'id')?.slice(0, 32) ?? null,
        endpoint: what,
      });
      sendJson(req, res, 404, { status: 404, message: 'MAC address not registered' });
      return null;
    }
    const given = header(req, 'access-token');
    if (given === undefined || given === '') {
      this.#refuse(req, 'W_TRMNL_TOKEN_MISSING', { mac, endpoint: what });
      sendJson(req, res, 401, { status: 401, message: 'Access-Token header missing' });
      return null;
    }
    const expected = this.#d.tokens.get(mac);
    if (expected === undefined || !tokenMatches(expected, given)) {
      this.#throttle.wrong(req.socket.remoteAddress);
      this.#refuse(req, 'W_TRMNL_TOKEN_WRONG', { mac, endpoint: what });
      sendJson(req, res, 403, { status: 403, message: 'invalid access token' });
      return null;
    }
    return { mac, dev };
  }

  async display(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const auth = this.#authenticate(req, res, '/api/display');
    if (auth === null) return;
    const { mac, dev } = auth;
    const h = readTrmnlHeaders(req);
    const spec = this.#spec(dev, h, mac, true);
    this.#d.images.want(dev.display, mac, spec);
    const pressed = isButtonWake(h.wakeReason) ? await this.#button(dev) : null;
    const screen = await this.#screen(dev, spec, base);
    const refreshRate = pressed?.kind === 'pending' ? PRESS_PENDING_REFRESH_S : screen.refresh_rate;
    const full =
      screen.image === null ? false : this.#fullRefresh.plan(mac, loadPanel(screen.image.panel), screen.image);
    this.#record(dev, mac, h, spec, refreshRate);
    const fw = await this.#d.firmware
      ?.decide({ mac, fwVersion: h.fwVersion, batteryPct: h.batteryPct, charging: h.charging })
      .catch((err: unknown) => {
        this.#d.logger?.error({ mac, err }, 'the firmware offer could not be decided: none made');
        return null;
      });
    this.#d.logger?.debug(
      {
        mac,
        display: dev.display,
        panel: spec.panel,
        filename: screen.filename || null,
        refresh_rate: refreshRate,
        full_refresh: full,
        button: pressed?.kind ?? null,
      },
      'TRMNL display request',
    );
    sendJson(req, res, 200, {
      status: 0,
      image_url: screen.image_url,
      filename: screen.filename,
      refresh_rate: refreshRate,
      // The firmware caps this at 65 s (facts: parse_response_api_display.cpp); 30 s covers our image server on a LAN
      // with room for a slow Wi-Fi fetch, without keeping the radio awake longer than the cap allows.
      image_url_timeout: IMAGE_URL_TIMEOUT_S,
      ...(full && { maximum_compatibility: true }),
      update_firmware: fw?.offer != null,
      firmware_url: fw?.offer == null ? null : `${base}/trmnl/firmware/${fw.offer.version}.bin`,
      reset_firmware: false,
    });
  }

  /** GET /api/current_screen: what the device shows now, read-only: nothing recorded, nothing counted as a wake. */
  async currentScreen(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const auth = this.#authenticate(req, res, '/api/current_screen');
    if (auth === null) return;
    const screen = await this.#screen(auth.dev, this.#spec(auth.dev, readTrmnlHeaders(req), auth.mac, false), base);
    sendJson(req, res, 200, {
      status: 0,
      image_url: screen.image_url,
      filename: screen.filename,
      refresh_rate: screen.refresh_rate,
    });
  }

  /** GET /api/models: the screens we draw for, each with its profile's size and greys. */
  models(req: IncomingMessage, res: ServerResponse): void {
    sendJson(req, res, 200, modelRegistry());
  }

  /** The screen a device's frames are drawn for: its binding's panel, else what its headers say (models.ts). */
  #spec(dev: TrmnlDeviceBinding, h: TrmnlHeaders, mac: string, warn: boolean): ScreenSpec {
    const choice = chooseScreen({ panel: dev.panel ?? null, model: h.model, width: h.width, height: h.height });
    if (choice.kind === 'nearest' && warn && !this.#warnedScreens.has(mac)) {
      this.#warnedScreens.add(mac);
      this.#d.logger?.warn(
        {
          code: 'W_TRMNL_SCREEN_UNKNOWN',
          mac,
          display: dev.display,
          model: h.model,
          width: choice.width,
          height: choice.height,
          panel: choice.panel.id,
        },
        "TRMNL: no panel profile has this device's screen; drawn for the largest that fits inside it (said once a device)",
      );
    }
    return { ...screenSpec(choice, dev.format ?? 'png'), ...(dev.person !== undefined && { person: dev.person }) };
  }

  /** The device's button: a warmth vote when its binding says so (no purchase, the frame stays); else a refresh. */
  async #button(dev: TrmnlDeviceBinding): Promise<ButtonOutcome> {
    const b = dev.button;
    if (b?.action !== 'vote') return this.#press(dev.display);
    this.#d.logger?.debug({ display: dev.display, person: b.person, vote: b.vote }, "a TRMNL device's button voted");
    this.#d.vote?.(b.person, b.vote);
    return { kind: 'done' };
  }

  /** The device's button: a refresh, waited for a while, so the press shows its outfit on this very wake. */
  async #press(displayId: string): Promise<ButtonOutcome> {
    const press = this.#d.press;
    if (press === undefined) return { kind: 'refused' };
    try {
      return await waitForPress(press(displayId), this.#d.clock, this.#d.pressWaitMs ?? PRESS_WAIT_MS);
    } catch (err) {
      this.#d.logger?.error({ display: displayId, err }, "a refresh by a TRMNL device's button failed");
      return { kind: 'done' };
    }
  }

  #record(dev: TrmnlDeviceBinding, mac: string, h: TrmnlHeaders, spec: ScreenSpec, periodS: number): void {
    try {
      this.#d.book?.report({
        key: trmnlDeviceKey(mac),
        display: dev.display,
        kind: 'trmnl',
        mac,
        model: h.model,
        panel: spec.panel,
        batteryPct: h.batteryPct,
        batteryVoltage: h.batteryVoltage,
        charging: h.charging,
        usbPower: h.usbPower,
        rssi: h.rssi,
        fwVersion: h.fwVersion,
        wakeReason: h.wakeReason,
        sensors: h.sensors,
        periodS,
        at: new Date(this.#d.clock.now()),
      });
    } catch (err) {
      this.#d.logger?.error({ err }, "a TRMNL device's wake could not be recorded");
    }
  }

  /** The device's current image and when to come back: what /api/display and /api/current_screen both answer. */
  async #screen(
    dev: TrmnlDeviceBinding,
    spec: ScreenSpec,
    base: string,
  ): Promise<{ image: TrmnlImage | null; image_url: string; filename: string; refresh_rate: number }> {
    const view = this.#d.view(dev.display);
    let img: TrmnlImage | null = null;
    try {
      img = view === null ? null : await this.#d.images.imageFor(view, spec);
    } catch (err) {
      // The frame for this screen could not be drawn: the last image drawn for it stays (a failure never replaces
      // the last good picture), and the device asks again at its next wake.
      this.#d.logger?.error(
        { err, display: dev.display, panel: spec.panel },
        "TRMNL: the frame could not be drawn for a device's screen; its last image is served",
      );
      img = this.#d.images.current(dev.display, spec);
    }
    // Before the first frame: nothing to draw, come back in a minute (status 0 with no image draws nothing).
    const refresh =
      img === null
        ? 60
        : refreshRateFor(this.#d.nextUpdateAt(dev.display), this.#d.clock.now(), this.#d.refreshMarginS ?? 30);
    return {
      image: img,
      image_url: img ? imageUrl(base, dev.display, img) : '',
      filename: img?.filename ?? '',
      refresh_rate: refresh,
    };
  }

  async log(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = this.#authenticate(req, res, '/api/log');
    if (auth === null) {
      req.resume();
      return;
    }
    await receiveDeviceLog(req, res, { mac: auth.mac, display: auth.dev.display }, this.#logLimit, this.#d.logger);
  }
}

function imageUrl(base: string, displayId: string, img: Pick<TrmnlImage, 'filename' | 'format'>): string {
  return `${base}/displays/${encodeURIComponent(displayId)}/trmnl/${img.filename}.${img.format}`;
}
