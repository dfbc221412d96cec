import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { numberIn, readSensors, readTrmnlHeaders } from '../../src/trmnl/device-headers.js';
import { kindleReport } from '../../src/trmnl/kindle-query.js';

/** A request as readTrmnlHeaders sees it: Node gives header names in lower case. */
function request(headers: Record<string, string>): IncomingMessage {
  return {
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  } as unknown as IncomingMessage;
}

describe('numbers a device sends are read as decimal only', () => {
  it('takes what the firmware prints: digits, a sign, a fraction', () => {
    for (const [text, n] of [
      ['16', 16],
      ['4.1', 4.1],
      ['-55', -55],
      ['+3', 3],
      ['21.500000', 21.5],
      ['.5', 0.5],
      ['5.', 5],
      [' 83 ', 83],
      ['007', 7],
    ] as const) {
      expect(numberIn(text), text).toBe(n);
    }
  });

  it("refuses what JavaScript's Number() would read and no device means: hex, binary, octal, exponents, Infinity, blanks", () => {
    for (const text of [
      '0x10',
      '0X10',
      '0b1',
      '0o7',
      '1e3',
      '1E-2',
      'Infinity',
      '-Infinity',
      'NaN',
      '',
      ' ',
      '1_000',
      '1,5',
      '4.1V',
      '--1',
      '0x',
      '١٦',
    ]) {
      expect(numberIn(text), text).toBeNull();
    }
    expect(numberIn(undefined)).toBeNull();
    expect(numberIn('9'.repeat(400))).toBeNull();
  });

  it('Percent-Charged: 0x10 is not 16: the percent comes from the voltage; the size, RSSI and refresh rate likewise', () => {
    const h = readTrmnlHeaders(
      request({
        'Percent-Charged': '0x10',
        'Battery-Voltage': '4.05',
        Width: '0x320',
        Height: '1e3',
        RSSI: '-0x3d',
        'Refresh-Rate': '0b1',
      }),
    );
    expect(h.batteryPct).toBe(87.5);
    expect([h.width, h.height, h.rssi, h.refreshRateS]).toEqual([null, null, null, null]);
    expect(readTrmnlHeaders(request({ 'Percent-Charged': '16' })).batteryPct).toBe(16);
    expect(readTrmnlHeaders(request({ 'Battery-Voltage': '0x4' })).batteryVoltage).toBeNull();
  });

  it('a SENSORS value in hex or with an exponent is no reading', () => {
    expect(readSensors('kind=temperature;value=0x15,kind=humidity;value=4e1,kind=co2;value=612')).toEqual([
      { kind: 'co2', value: 612, unit: null, source: null },
    ]);
  });

  it("a Kindle's batteryLevel=0x40 is no level", () => {
    const at = new Date(0);
    expect(
      kindleReport(new URLSearchParams('batteryLevel=0x40&isCharging=No'), 'hallway', 60, at)?.batteryPct,
    ).toBeNull();
    expect(kindleReport(new URLSearchParams('batteryLevel=64'), 'hallway', 60, at)?.batteryPct).toBe(64);
  });
});
