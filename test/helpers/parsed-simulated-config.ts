import type { z } from '../../src/shared/zod.js';
import { ConfigSchema, type Config } from '../../src/config/schema.js';

/** The sections a test gives: at least the displays; `api`, `budget` and `timezone` are the helper's. */
export type SimulatedConfigSections = Omit<z.input<typeof ConfigSchema>, 'api' | 'budget' | 'timezone'>;

/**
 * A config as the loader returns it, against the simulated service, 100 credits a day, in Europe/Berlin, with the
 * displays and sections (mqtt, trmnl, http) the test adds: what the firmware simulator's tests start from.
 */
export function parsedSimulatedConfig(sections: SimulatedConfigSections): Config {
  return ConfigSchema.parse({
    api: { base_url: 'simulated' },
    budget: { credits_per_day: 100 },
    timezone: 'Europe/Berlin',
    ...sections,
  });
}
