import { describe, expect, it } from 'vitest';
import { whereToLook } from '../../src/cli/where-to-look.js';
import { parsedSimulatedConfig } from '../helpers/parsed-simulated-config.js';

/** What `run` prints first on a terminal (src/cli/where-to-look.ts), read from the config alone. */

const display = (id: string) => ({ id, lat: 52.52, lon: 13.405, panel: 'waveshare-7in5-v2' });

describe('where to look', () => {
  it('names the frame file relative to the folder run from, the status page and the embedded broker with its fallback', () => {
    const config = {
      ...parsedSimulatedConfig({
        displays: [display('hallway')],
        http: { listen: '127.0.0.1:8321' },
        mqtt: { url: 'embedded' },
      }),
      output_dir: '/srv/demo/frames',
    };
    expect(whereToLook(config, '/srv/demo').split('\n')).toEqual([
      'frame:       frames/hallway.png',
      'status page: http://127.0.0.1:8321/',
      'MQTT broker: mqtt://127.0.0.1:1883, inside the daemon (another free port if that one is taken: the log says which)',
      '',
    ]);
  });

  it('a folder outside the one run from is absolute; the wildcard addresses are shown as loopback; a given broker port has no fallback', () => {
    const config = {
      ...parsedSimulatedConfig({
        displays: [display('hallway'), display('kitchen')],
        http: { listen: '0.0.0.0:8080' },
        mqtt: { url: 'embedded', embedded: { listen: '[::]:1884' } },
      }),
      output_dir: '/var/lib/outfit-display/frames',
    };
    const text = whereToLook(config, '/home/me');
    expect(text).toContain(
      'frames:      /var/lib/outfit-display/frames/hallway.png, /var/lib/outfit-display/frames/kitchen.png\n',
    );
    expect(text).toContain('status page: http://127.0.0.1:8080/\n');
    expect(text).toContain('MQTT broker: mqtt://[::1]:1884, inside the daemon\n');
  });

  it('an outside broker is its scheme, host and port: the login in its URL is never printed', () => {
    const config = parsedSimulatedConfig({
      displays: [display('hallway')],
      mqtt: { url: 'mqtts://owner:s3cret-pass@broker.lan:8883/x' },
    });
    const text = whereToLook(config, '/');
    expect(text).toContain('MQTT broker: mqtts://broker.lan:8883\n');
    expect(text).not.toMatch(/owner|s3cret/);
    expect(text).not.toContain('status page');
  });

  it('a port the system picks (0) is left to the log, not made up', () => {
    const config = parsedSimulatedConfig({ displays: [display('hallway')], http: { listen: '127.0.0.1:0' } });
    expect(whereToLook(config, '/')).toContain(
      'status page: on a free port of 127.0.0.1: the log\'s "HTTP frame server listening" line names it\n',
    );
  });
});
