/** One display of a test config; lat and lon default to Berlin. */
export interface DisplayYaml {
  id: string;
  name?: string;
  lat?: number;
  lon?: number;
  panel?: string;
  schedule?: string;
  /** Further lines of the display as YAML under it (`attached:`, `  capture: x`), indented for it here. */
  more?: readonly string[];
}

export interface ConfigYamlOptions {
  /** Default `simulated`: the service simulated in the daemon's own process. */
  baseUrl?: string;
  /** Further lines under `api:` and `budget:`, indented for them here. */
  api?: readonly string[];
  budget?: readonly string[];
  creditsPerDay?: number;
  timezone?: string;
  /** The displays, or their YAML lines as the test writes them (already indented under `displays:`). */
  displays: readonly DisplayYaml[] | string;
  /** Top-level sections after the displays (`mqtt:`, `http:`, `trmnl:`...), as written. */
  sections?: readonly string[];
  /** Default `frames` and `state`; null leaves the key out. */
  outputDir?: string | null;
  stateDir?: string | null;
  logLevel?: string;
}

function displayLines(d: DisplayYaml): string[] {
  return [
    `  - id: ${d.id}`,
    ...(d.name !== undefined ? [`    name: ${d.name}`] : []),
    `    lat: ${d.lat ?? 52.52}`,
    `    lon: ${d.lon ?? 13.405}`,
    ...(d.panel !== undefined ? [`    panel: ${d.panel}`] : []),
    ...(d.schedule !== undefined ? [`    schedule: "${d.schedule}"`] : []),
    ...(d.more ?? []).map((l) => `    ${l}`),
  ];
}

/**
 * The text of a daemon config (config.yaml) for a test: the parts every test config has (api, budget, timezone,
 * displays, output and state folders) with the defaults most tests use, and what a test adds in its own words.
 * Ends with a newline.
 */
export function configYaml(o: ConfigYamlOptions): string {
  return [
    'api:',
    `  base_url: ${o.baseUrl ?? 'simulated'}`,
    ...(o.api ?? []).map((l) => `  ${l}`),
    'budget:',
    `  credits_per_day: ${o.creditsPerDay ?? 300}`,
    ...(o.budget ?? []).map((l) => `  ${l}`),
    `timezone: ${o.timezone ?? 'Europe/Berlin'}`,
    'displays:',
    ...(typeof o.displays === 'string' ? [o.displays] : o.displays.flatMap(displayLines)),
    ...(o.sections ?? []),
    ...(o.outputDir === null ? [] : [`output_dir: ${o.outputDir ?? 'frames'}`]),
    ...(o.stateDir === null ? [] : [`state_dir: ${o.stateDir ?? 'state'}`]),
    ...(o.logLevel !== undefined ? [`log_level: ${o.logLevel}`] : []),
    '',
  ].join('\n');
}

/** The `people` section of the household tests: Anna (female) and Ben (male). */
export const HOUSEHOLD_PEOPLE_YAML: readonly string[] = [
  'people:',
  '  - id: anna',
  '    name: Anna',
  '    gender: female',
  '  - id: ben',
  '    name: Ben',
  '    gender: male',
];
