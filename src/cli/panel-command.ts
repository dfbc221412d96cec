import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AttachedSchema, type AttachedConfig, type DisplayConfig } from '../config/schema.js';
import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { attachablePanels, driverFacts, isAttachable } from '../epd/drivers/index.js';
import { builtForAnotherNode } from '../epd/bus-errors.js';
import { EpdError } from '../epd/epd-error.js';
import {
  openAttachedDriver,
  resolveAttachment,
  type AttachedPanel,
  type ResolvedAttachment,
} from '../epd/open-driver.js';
import { describeInkyEeprom } from '../epd/inky-eeprom.js';
import { importOptional } from '../epd/optional-lib.js';
import { panelImageFromPng } from '../epd/panel-image.js';
import { resolveButtonPins } from '../epd/pins.js';
import { checkSpiDevice } from '../epd/real-bus.js';
import { loadPanel } from '../panels/panels.js';
import type { Rotation } from '../render/encode/rotate.js';
import { systemClock } from '../time/clock.js';
import { HelpRequested } from './command-flags.js';
import { loadCommandConfig } from './load-command-config.js';
import { UsageError } from './usage-error.js';

/**
 * `panel show|clear|info`: the panel on this machine's header, by hand. The panel and its wiring come from
 * `--panel ID` (the board's default pins and /dev/spidev0.0) or from the config's display with `attached`
 * (`--config F [--display ID]`); `--capture FILE` writes the command stream to FILE instead of touching SPI and GPIO.
 */

const OPTIONS = {
  panel: { type: 'string' },
  config: { type: 'string', short: 'c' },
  display: { type: 'string', short: 'd' },
  capture: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Target extends AttachedPanel {
  /** How the display is mounted (a frame PNG is as seen on the wall). */
  rotation: Rotation;
  /** Where the settings came from, for `info`. */
  source: string;
}

async function target(flags: { panel?: string; config?: string; display?: string; capture?: string }): Promise<Target> {
  let t: Target;
  if (flags.config !== undefined) {
    const { config } = await loadCommandConfig('panel', flags.config);
    const attached = config.displays.filter(
      (d): d is DisplayConfig & { attached: AttachedConfig } => d.attached !== undefined,
    );
    const pick =
      flags.display !== undefined
        ? config.displays.find((d) => d.id === flags.display)
        : (attached.find((d) => flags.panel === undefined || d.panel === flags.panel) ??
          (flags.panel === undefined ? undefined : config.displays.find((d) => d.panel === flags.panel)));
    if (pick === undefined) {
      throw new UsageError(
        flags.display !== undefined
          ? `no display with id "${flags.display}" in ${flags.config}`
          : `no display with an attached panel${flags.panel === undefined ? '' : ` ${flags.panel}`} in ${flags.config}`,
      );
    }
    if (flags.panel !== undefined && pick.panel !== flags.panel)
      throw new UsageError(`display "${pick.id}" has panel ${pick.panel}, not ${flags.panel}`);
    t = {
      panel: pick.panel,
      attached: pick.attached ?? AttachedSchema.parse({}),
      rotation: pick.rotation,
      source: `${flags.config}, display "${pick.id}"`,
    };
  } else {
    if (flags.panel === undefined)
      throw new UsageError('panel needs --panel ID (or --config F with a display that has `attached`)');
    t = { panel: flags.panel, attached: AttachedSchema.parse({}), rotation: 0, source: 'the board defaults' };
  }
  if (!isAttachable(t.panel))
    throw new UsageError(
      `no driver for the ${t.panel} panel on the Pi's header; panels that can be attached: ${attachablePanels().join(', ')}`,
    );
  if (flags.capture !== undefined) t.attached = { ...t.attached, capture: flags.capture };
  return t;
}

async function info(t: Target): Promise<void> {
  const r = resolveAttachment(t);
  const facts = await driverFacts(t.panel);
  const profile = loadPanel(t.panel);
  const pins = Object.entries(r.pins)
    .map(
      ([role, pin]) =>
        `${role.toUpperCase()} ${pin === null ? (role === 'cs' ? 'CE0 (the SPI driver)' : 'none') : `GPIO ${pin}`}`,
    )
    .join(', ');
  const lines = [
    `panel:      ${t.panel} (${profile.name}, ${profile.width}x${profile.height}, ${profile.palette.map((p) => p.name).join('/')})`,
    `controller: ${facts ? `${facts.controller}, BUSY ${facts.busyWhen} while busy, stream of ${facts.vendorFile}` : 'unknown'}`,
    `refresh:    ${profile.refresh.full_ms} ms a full refresh (the vendor's figure)`,
    `board:      ${r.board}, SPI clock ${r.spiHz / 1e6} MHz`,
    `pins:       ${pins}`,
    ...buttonsLine(t, r),
    r.bus.kind === 'capture'
      ? `bus:        capture to ${r.bus.file} (no SPI or GPIO is touched)`
      : `bus:        ${r.bus.device}, GPIO chip ${r.bus.gpioChip ?? "of the Pi's header, by its label"}`,
    ...(r.bus.kind === 'spi' ? [`spi:        ${spiAccess(r.bus.device)}`, `libraries:  ${await libraries()}`] : []),
    // The Inky says what it is: Pimoroni's EEPROM on I2C (nothing is read for a capture bus).
    ...(r.bus.kind === 'spi' && r.board === 'inky' ? [`eeprom:     ${await describeInkyEeprom()}`] : []),
    `settings:   from ${t.source}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The configured buttons, their pins and what each does (none: no line). */
function buttonsLine(t: Target, r: ResolvedAttachment): string[] {
  const buttons = t.attached.buttons ?? {};
  const { pins } = resolveButtonPins(r.board, r.pins, buttons);
  if (pins.length === 0) return [];
  const each = pins.map(({ key, pin }) => {
    const b = buttons[key]!;
    return `${key.toUpperCase()} GPIO ${pin} (${b.action === 'vote' ? `vote ${b.vote} for ${b.person}` : 'refresh'})`;
  });
  return [`buttons:    ${each.join(', ')}${r.bus.kind === 'capture' ? '; not read with a capture bus' : ''}`];
}

/** Whether this user may open the SPI device, or the fix (the same check the daemon makes first). */
function spiAccess(device: string): string {
  try {
    checkSpiDevice(device);
    return 'present, and this user may open it';
  } catch (err) {
    return `${(err as EpdError).code}: ${(err as Error).message}`;
  }
}

/** Whether the optional bus libraries load here. */
async function libraries(): Promise<string> {
  const one = async (lib: string): Promise<string> => {
    try {
      await importOptional(lib);
      return `${lib} installed`;
    } catch (err) {
      if (builtForAnotherNode(err)) return `${lib} built for another Node.js (npm rebuild ${lib})`;
      return `${lib} MISSING (npm install ${lib}${lib === 'node-libgpiod' ? ', after apt-get install libgpiod-dev' : ''})`;
    }
  };
  return (await Promise.all(['spi-device', 'node-libgpiod'].map(one))).join('; ');
}

/** `panel show|clear|info [flags] [FRAME.png]`. */
export async function panelCommand(argv: string[]): Promise<ExitCode> {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(`panel: ${(err as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) throw new HelpRequested();
  const [sub, ...rest] = positionals;
  if (sub !== 'show' && sub !== 'clear' && sub !== 'info')
    throw new UsageError(`panel needs show, clear or info (not ${sub === undefined ? 'nothing' : `"${sub}"`})`);
  if (sub === 'show' ? rest.length !== 1 : rest.length !== 0) {
    throw new UsageError(sub === 'show' ? 'panel show needs one FRAME.png' : `unexpected argument "${rest[0]}"`);
  }
  const t = await target(values);
  if (sub === 'info') {
    await info(t);
    return EXIT.OK;
  }
  try {
    const image = sub === 'show' ? panelImageFromPng(readFileSync(rest[0]!), loadPanel(t.panel), t.rotation) : null;
    const driver = await openAttachedDriver(t, { clock: systemClock });
    try {
      if (image !== null) await driver.showFull(image);
      else await driver.clear();
    } finally {
      // Asleep and the HAT's power off: the state a panel is stored in.
      await driver.close();
    }
  } catch (err) {
    if (err instanceof EpdError) {
      process.stderr.write(`error: ${err.code}: ${err.message}\n`);
      return err.code === 'E_PANEL_FRAME' ? EXIT.USAGE : EXIT.FAILURE;
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && sub === 'show')
      throw new UsageError(`cannot read ${rest[0]}: no such file`);
    throw err;
  }
  process.stdout.write(
    sub === 'show' ? `${t.panel}: frame shown, panel asleep\n` : `${t.panel}: cleared, panel asleep\n`,
  );
  return EXIT.OK;
}
