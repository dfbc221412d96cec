import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  builtForAnotherNode,
  busyTimeout,
  gpioChipError,
  gpioLineError,
  libraryMissing,
  spiOpenError,
} from '../../src/epd/bus-errors.js';
import { decodeInkyEeprom, describeInkyEeprom } from '../../src/epd/inky-eeprom.js';
import { DEFAULT_PINS, defaultBoard, LINE_SETUP, resolvePins } from '../../src/epd/pins.js';
import { openRealBus } from '../../src/epd/real-bus.js';

/**
 * The real bus as far as a machine without a Pi's header can take it: the SPI device checked before any library
 * loads, then node-libgpiod (an optionalDependency, built here against Debian's libgpiod) asked for the header's
 * chip. The errno codes a Pi gives for the other failures (permission, a pin in use) are put through the same
 * mapping as faults.
 */

const tmp = () => mkdtempSync(path.join(tmpdir(), 'real-bus-'));

/**
 * Whether an optional native library loads under the Node running the tests. CI runs the suite on several Node
 * majors over one install, and these libraries (nan, not Node-API) are built for the first: under the others the
 * tests expect the "built for another Node.js" error and its fix instead.
 */
async function loadsHere(lib: string): Promise<boolean> {
  return import(lib).then(
    () => true,
    (err: unknown) => {
      if (!builtForAnotherNode(err)) throw err;
      return false;
    },
  );
}
const pins = DEFAULT_PINS['waveshare-hat'];

describe('openRealBus', () => {
  it('no SPI device: E_PANEL_BUS naming dtparam=spi=on and raspi-config', async () => {
    const device = path.join(tmp(), 'spidev0.0');
    const err = await openRealBus({ spiDevice: device, spiHz: 4e6, pins, lines: LINE_SETUP['waveshare-hat'] }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'E_PANEL_BUS' });
    expect((err as Error).message).toContain(device);
    expect((err as Error).message).toContain('dtparam=spi=on');
    expect((err as Error).message).toContain('raspi-config nonint do_spi 0');
  });

  it('an SPI device but no GPIO chip of the header: E_PANEL_BUS from node-libgpiod, saying which chips there are', async () => {
    const device = path.join(tmp(), 'spidev0.0');
    writeFileSync(device, '');
    const err = await openRealBus({ spiDevice: device, spiHz: 4e6, pins, lines: LINE_SETUP['waveshare-hat'] }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'E_PANEL_BUS' });
    if (!(await loadsHere('node-libgpiod'))) {
      expect((err as Error).message).toContain('npm rebuild node-libgpiod');
      return;
    }
    expect((err as Error).message).toMatch(/no GPIO chip of the Pi's header found/);
    expect((err as Error).message).toContain('attached.gpio_chip');
  });
});

describe('bus errors name the fix', () => {
  it('permission denied on the SPI device or a GPIO chip: the spi and gpio groups', () => {
    for (const e of [
      spiOpenError('/dev/spidev0.0', { code: 'EACCES' }),
      gpioChipError('/dev/gpiochip0', { code: 'EACCES' }),
      gpioLineError('rst', 17, { code: 'EPERM' }),
    ]) {
      expect(e.code).toBe('E_PANEL_PERMISSION');
      expect(e.message).toContain('usermod -aG spi,gpio');
    }
  });

  it('a pin in use: E_PANEL_PIN_BUSY naming the pin, gpioinfo and the override', () => {
    const e = gpioLineError('cs', 8, { code: 'EBUSY' });
    expect(e.code).toBe('E_PANEL_PIN_BUSY');
    expect(e.message).toContain('GPIO 8');
    expect(e.message).toContain('gpioinfo');
    expect(e.message).toContain('dtoverlay=spi0-0cs');
    expect(e.message).toContain('attached.pins.cs');
  });

  it('BUSY never idle: E_PANEL_BUSY_TIMEOUT naming the pin and what to check', () => {
    const e = busyTimeout(24, 'low', 40_000);
    expect(e.code).toBe('E_PANEL_BUSY_TIMEOUT');
    expect(e.message).toContain('GPIO 24');
    expect(e.message).toContain('attached.pins.busy');
  });

  it('a library not installed: E_PANEL_BUS with the npm install and libgpiod-dev', () => {
    const other = libraryMissing(
      'spi-device',
      new Error(
        "The module 'spidev.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 127.",
      ),
    );
    expect(other).toMatchObject({ code: 'E_PANEL_BUS' });
    expect(other.message).toContain('npm rebuild spi-device');
    const e = libraryMissing('node-libgpiod', new Error('Cannot find module'));
    expect(e.code).toBe('E_PANEL_BUS');
    expect(e.message).toContain('npm install node-libgpiod');
    expect(e.message).toContain('libgpiod-dev');
  });
});

describe('pins', () => {
  it("each board's defaults are the vendor's wiring", () => {
    expect(resolvePins('waveshare-hat')).toEqual({ rst: 17, dc: 25, busy: 24, pwr: 18, cs: null });
    expect(resolvePins('inky')).toEqual({ rst: 27, dc: 22, busy: 17, pwr: null, cs: 8 });
    expect(defaultBoard('inky-impression-7in3')).toBe('inky');
    expect(defaultBoard('waveshare-2in13')).toBe('waveshare-hat');
  });

  it('overrides replace single pins; one pin for two roles is refused naming both', () => {
    expect(resolvePins('waveshare-hat', { busy: 5, pwr: null })).toEqual({
      rst: 17,
      dc: 25,
      busy: 5,
      pwr: null,
      cs: null,
    });
    expect(() => resolvePins('waveshare-hat', { busy: 17 })).toThrow(/GPIO 17 is given for both rst and busy/);
  });
});

describe("the Inky's EEPROM", () => {
  // 29 bytes as inky/eeprom.py (pimoroni/inky 07035b3) packs them: struct "<HHBBB22p" of 800, 480, colour 6
  // (spectra6), PCB 12, display variant 22 ("Spectra 6 7.3 800 x 480 (E673)") and the write time.
  const E673 = Buffer.from('2003e001060c1615323032352d30332d30312031303a30303a30302e30', 'hex');

  it('decodes the display type the way Pimoroni reads it', () => {
    expect(decodeInkyEeprom(E673)).toEqual({
      width: 800,
      height: 480,
      colour: 'spectra6',
      pcb: 1.2,
      variant: 22,
      variantName: 'Spectra 6 7.3 800 x 480 (E673)',
      writtenAt: '2025-03-01 10:00:00.0',
      isE673: true,
    });
    // An erased EEPROM, or too few bytes: no Inky's.
    expect(decodeInkyEeprom(Buffer.alloc(29, 0xff))).toBeNull();
    expect(decodeInkyEeprom(E673.subarray(0, 20))).toBeNull();
  });

  it('on a machine without I2C: says so and how to enable it, through the real i2c-bus library', async () => {
    if (existsSync('/dev/i2c-1')) return;
    if (!(await loadsHere('i2c-bus')))
      return void expect(await describeInkyEeprom(1)).toBe(
        'not read: the optional library i2c-bus was built for another Node.js (npm rebuild i2c-bus)',
      );
    expect(await describeInkyEeprom(1)).toMatch(/^not read: no \/dev\/i2c-1 \(enable I2C: dtparam=i2c_arm=on/);
  });
});
