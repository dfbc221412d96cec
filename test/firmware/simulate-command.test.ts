import { describe, expect, it } from 'vitest';
import { runSimulateCommand, simulatorOptions } from '../../display/firmware/simulate-command.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';

const loaded: LoadedConfig = {
  config: parsedSimulatedConfig({
    displays: [{ id: 'hallway', lat: 52.5, lon: 13.4, panel: 'trmnl' }],
    http: { listen: '0.0.0.0:8400' },
  }),
  secrets: { apiKey: null, apiKeySource: null, mqttPassword: null, trmnlTokens: new Map() },
  file: '/tmp/config.yaml',
  warnings: [],
};

describe('simulate flags', () => {
  it('turns flags into simulator options', () => {
    const o = simulatorOptions(
      loaded,
      {
        display: 'hallway',
        wakes: '3',
        via: 'trmnl',
        speed: '60',
        'max-sleep': '5',
        'web-port': '0',
        mac: 'AA:BB:CC:DD:EE:FF',
      },
      '/work',
    );
    expect(o).toMatchObject({
      displayId: 'hallway',
      wakes: 3,
      via: 'trmnl',
      speed: 60,
      maxSleepS: 5,
      webPort: 0,
      outDir: '/work/simulator-hallway',
      mac: 'AA:BB:CC:DD:EE:FF',
    });
  });

  it.each([
    [{ via: 'carrier-pigeon' }, /--via must be http, trmnl, mqtt, panel or esphome/],
    [{ 'deep-sleep': true }, /--deep-sleep is for --via esphome/],
    [{ wakes: '0' }, /--wakes must be a whole number of at least 1/],
    [{ speed: '-1' }, /--speed must be a number/],
    [{ url: 'not a url' }, /--url must be a URL/],
    [{ display: 'attic' }, /no display with id "attic"/],
    [{ via: 'trmnl' }, /no trmnl.devices entry maps to display "hallway"/],
    [{ via: 'mqtt' }, /--via mqtt needs an mqtt section/],
    [{ via: 'panel' }, /--via panel needs display "hallway" to have attached\.capture/],
  ])('%o is bad usage (exit 2) with a message', async (flags, message) => {
    const errors: string[] = [];
    const code = await runSimulateCommand(
      loaded,
      { display: 'hallway', wakes: '1', out: '/tmp/never-written', ...flags },
      {
        log: () => undefined,
        error: (l) => errors.push(l),
        signal: new AbortController().signal,
      },
    );
    expect(code).toBe(2);
    expect(errors.join('\n')).toMatch(message);
  });
});
