/**
 * The Inky's EEPROM (I2C address 0x50 on bus 1): Pimoroni writes each board's display type into it, so `panel info`
 * can say what is really attached. Layout and names from Pimoroni's inky/eeprom.py (commit 07035b3): the struct
 * "<HHBBB22p": width, height (uint16 little-endian), colour, PCB variant, display variant (one byte each), then the
 * time it was written as a Pascal string (a length byte and up to 21 characters). Read with i2c-bus, an optional
 * dependency loaded only here.
 */

import { builtForAnotherNode } from './bus-errors.js';
import { importOptional } from './optional-lib.js';

const INKY_EEPROM_ADDRESS = 0x50;

/** inky/eeprom.py EPDType.valid_colors. */
const COLOURS = [null, 'black', 'red', 'yellow', null, '7colour', 'spectra6', 'red/yellow'] as const;

/** inky/eeprom.py DISPLAY_VARIANT, by index. */
const VARIANTS: readonly (string | null)[] = [
  null,
  'Red pHAT (High-Temp)',
  'Yellow wHAT',
  'Black wHAT',
  'Black pHAT',
  'Yellow pHAT',
  'Red wHAT',
  'Red wHAT (High-Temp)',
  'Red wHAT',
  null,
  'Black pHAT (SSD1608)',
  'Red pHAT (SSD1608)',
  'Yellow pHAT (SSD1608)',
  null,
  '7-Colour (UC8159)',
  '7-Colour 640x400 (UC8159)',
  '7-Colour 640x400 (UC8159)',
  'Black wHAT (SSD1683)',
  'Red wHAT (SSD1683)',
  'Yellow wHAT (SSD1683)',
  '7-Colour 800x480 (AC073TC1A)',
  'Spectra 6 13.3 1600 x 1200 (EL133UF1)',
  'Spectra 6 7.3 800 x 480 (E673)',
  'Red/Yellow pHAT (JD79661)',
  'Red/Yellow wHAT (JD79668)',
  'Spectra 6 4.0 600 x 400 (E640)',
  'Spectra 6 7.3 800 x 480 (E673) AC',
  'Spectra 6 13.3 1600 x 1200 (EL133UF1) AC',
];

/** The display variants our `inky-impression-7in3` driver is for (inky_e673.py). */
const E673_VARIANTS = new Set([22, 26]);

export interface InkyEeprom {
  width: number;
  height: number;
  colour: string | null;
  /** PCB revision, e.g. 1.2. */
  pcb: number;
  variant: number;
  variantName: string | null;
  writtenAt: string;
  /** Whether it is the panel our inky-impression-7in3 driver drives. */
  isE673: boolean;
}

/** The 29 bytes of the EEPROM as inky/eeprom.py reads them; null when they are no EEPROM of Pimoroni's. */
export function decodeInkyEeprom(bytes: Uint8Array): InkyEeprom | null {
  if (bytes.length < 29) return null;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = b.readUInt16LE(0);
  const height = b.readUInt16LE(2);
  const variant = b[6]!;
  // An erased EEPROM reads 0xff everywhere: no Inky's.
  if (width === 0 || width === 0xffff || height === 0 || height === 0xffff) return null;
  const len = Math.min(b[7]!, 21);
  return {
    width,
    height,
    colour: COLOURS[b[4]!] ?? null,
    pcb: b[5]! / 10,
    variant,
    variantName: VARIANTS[variant] ?? null,
    writtenAt: b.subarray(8, 8 + len).toString('latin1'),
    isE673: E673_VARIANTS.has(variant),
  };
}

/** What is at 0x50 on I2C bus `bus`, as one line for `panel info` (never throws). */
export async function describeInkyEeprom(bus = 1): Promise<string> {
  let i2c: {
    openSync(n: number): {
      writeI2cBlockSync(a: number, c: number, l: number, b: Buffer): number;
      readI2cBlockSync(a: number, c: number, l: number, b: Buffer): number;
      closeSync(): void;
    };
  };
  try {
    i2c = await importOptional<typeof i2c>('i2c-bus');
  } catch (err) {
    if (builtForAnotherNode(err))
      return 'not read: the optional library i2c-bus was built for another Node.js (npm rebuild i2c-bus)';
    return 'not read: the optional library i2c-bus is not installed (npm install i2c-bus)';
  }
  let handle: ReturnType<typeof i2c.openSync> | null = null;
  try {
    handle = i2c.openSync(bus);
    // As inky/eeprom.py: set the EEPROM's address pointer to 0, then read the 29 bytes of its struct.
    handle.writeI2cBlockSync(INKY_EEPROM_ADDRESS, 0x00, 1, Buffer.of(0x00));
    const buf = Buffer.alloc(29);
    handle.readI2cBlockSync(INKY_EEPROM_ADDRESS, 0x00, 29, buf);
    const e = decodeInkyEeprom(buf);
    if (e === null) return 'read, but holds no Inky display type';
    const what = `${e.variantName ?? `variant ${e.variant}`}, ${e.width}x${e.height}, ${e.colour ?? 'unknown colour'}, PCB ${e.pcb}`;
    return e.isE673
      ? `${what}: the panel inky-impression-7in3 drives`
      : `${what}: NOT the Inky Impression 7.3" (2025) that inky-impression-7in3 drives`;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return `not read: no /dev/i2c-${bus} (enable I2C: dtparam=i2c_arm=on, or raspi-config nonint do_i2c 0)`;
    if (code === 'EACCES' || code === 'EPERM')
      return `not read: may not open /dev/i2c-${bus} (the i2c group: sudo usermod -aG i2c USER)`;
    return `not read: nothing answers at 0x50 on /dev/i2c-${bus} (${code ?? (err as Error).message}): no Inky, or another board`;
  } finally {
    handle?.closeSync();
  }
}
