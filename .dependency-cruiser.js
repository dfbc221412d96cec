// @ts-check
/**
 * The architecture, checked: `npm run deps` (part of `npm run check`). docs/contributing/architecture.md says the same
 * in words.
 *
 * src/ is in layers; a layer imports only from layers below it, never from its own rank's other folders or upward.
 * `import type` counts (tsPreCompilationDeps), so a type cannot pull a cycle or a layer back in either.
 */

/** Lowest first. Folders on one rank are independent of each other. */
const LAYERS = [
  ['shared', 'time'],
  ['i18n', 'panels', 'domain'],
  ['api'],
  ['store', 'log'],
  ['config'],
  ['budget', 'render', 'household'],
  ['state'],
  ['publish'],
  ['files', 'epd', 'trmnl', 'oepl', 'webhook'],
  ['mqtt', 'http'],
  ['daemon'],
  ['cli'],
];

/** Within src/render/: the doors (RENDER_DOORS) on top, the PNG/BMP encoders at the bottom. */
const RENDER_LAYERS = ['encode', 'text', 'draw', 'pictograms', 'layout'];

/**
 * What the rest of src/ may import from src/render/: draw a display's frame (display-frame.ts), draw it in a child
 * (render-process.ts), the frame itself and its JSON description (frame.ts, frame-json.ts), and the glyph warnings and
 * cache the commands wrap a run in; render-worker.ts is the child's side, which the hidden render-worker command runs.
 */
const RENDER_DOORS = ['display-frame', 'render-process', 'render-worker', 'frame', 'frame-json', 'glyph-warnings', 'glyph-disk-cache'];

/** `src/<folder>/…`; the command line's own files at the root (cli.ts, bin.ts) belong with src/cli/. */
const folderPath = (f) => (f === 'cli' ? '^src/(cli/|cli\\.ts$|bin\\.ts$)' : `^src/${f}/`);

/**
 * Real dependencies that run against the order, each the one way the product works (docs/contributing/architecture.md).
 */
const EXCEPTIONS = {
  // The config's schema accepts only panels a driver exists for, and the boards whose pins it knows.
  config: '^src/epd/(drivers/index|pins)\\.ts$',
};

/** The processes' entries: the command line (bin.ts) and the Home Assistant add-on's options converter. */
const ENTRIES = '^src/(bin|config/addon-entry)\\.ts$';

/** The only folders that may import the simulated outfit service, which otherwise stands apart. */
const SERVICE_SIM_USERS = ['daemon', 'cli'];

const layerRules = LAYERS.flatMap((rank, i) =>
  rank.flatMap((folder) => {
    const forbidden = [...rank.filter((f) => f !== folder), ...LAYERS.slice(i + 1).flat()].map(folderPath);
    if (!SERVICE_SIM_USERS.includes(folder)) forbidden.push('^src/service-sim/');
    if (forbidden.length === 0) return [];
    return [
      {
        name: `layer-${folder}`,
        comment: `src/${folder} may import only from the layers below it (${LAYERS.slice(0, i).flat().join(', ') || 'none'})`,
        severity: 'error',
        from: { path: folderPath(folder) },
        to: { path: forbidden.join('|'), ...(EXCEPTIONS[folder] ? { pathNot: EXCEPTIONS[folder] } : {}) },
      },
    ];
  }),
);

const renderRules = RENDER_LAYERS.map((sub, i) => ({
  name: `render-${sub}`,
  comment: `src/render/${sub} may import only from the render layers below it (${RENDER_LAYERS.slice(0, i).join(', ') || 'none'})`,
  severity: 'error',
  from: { path: `^src/render/${sub}/` },
  to: { path: [...RENDER_LAYERS.slice(i + 1).map((s) => `^src/render/${s}/`), '^src/render/[^/]+\\.ts$'].join('|') },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included: move the shared declaration down into its own file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'layer-unknown',
      comment: 'A folder of src/ that is in no layer: give it its place in LAYERS (and in docs/contributing/architecture.md).',
      severity: 'error',
      from: { path: '^src/', pathNot: [...LAYERS.flat().map(folderPath), '^src/service-sim/'] },
      to: {},
    },
    ...renderRules,
    {
      name: 'render-entry',
      comment:
        "Outside render/, a frame is drawn through render/'s doors (RENDER_DOORS); encode/'s PNG, raw and rotation are the one other door, for the panel drivers, TRMNL and the simulator.",
      severity: 'error',
      from: { path: '^(src|display)/', pathNot: '^src/render/' },
      to: { path: '^src/render/', pathNot: `^src/render/((${RENDER_DOORS.join('|')})\\.ts|encode/.*)$` },
    },
    {
      name: 'service-sim-apart',
      comment: 'The simulated outfit service stands apart: only shared/, time/ and the API schemas it serves.',
      severity: 'error',
      from: { path: '^src/service-sim/' },
      to: { path: '^src/', pathNot: '^src/(service-sim|shared|time)/|^src/api/schemas\\.ts$' },
    },
    {
      name: 'src-not-to-display-or-test',
      comment: 'src/ ships alone: it never imports the simulator (display/) or test code.',
      severity: 'error',
      // `outfit-display simulate` is the simulator's entry: the one command line file that starts it; day-server.ts
      // starts the daemon its `--day` is measured against and hands the simulator no more than its address.
      from: { path: '^src/', pathNot: '^src/cli/(simulate-command|day-server)\\.ts$' },
      to: { path: '^(display|test)/' },
    },
    {
      name: 'display-not-to-daemon-or-cli',
      comment: 'The firmware simulator uses the daemon\'s parts (render, panels, config…), never the daemon or the command line.',
      severity: 'error',
      from: { path: '^display/' },
      to: { path: `${folderPath('daemon')}|${folderPath('cli')}|^test/` },
    },
    {
      name: 'firmware-knows-the-daemon-by-the-wire',
      comment:
        "The firmware simulator wakes on what the wire says (refresh_rate, X-Refresh-Rate, sleep.txt), never on the daemon's own arithmetic: from src/ it takes the config (where to connect), the panel profiles and the device model table (the data both sides read), the encoders, the clock, shared helpers, the capture file's format and the plain HTTP listener of its live view.",
      severity: 'error',
      from: { path: '^display/firmware/' },
      to: {
        path: '^src/',
        pathNot: '^src/(shared|time|panels|config|render)/|^src/epd/capture-bus\\.ts$|^src/http/server\\.ts$',
      },
    },
    {
      name: 'no-orphans',
      comment: 'A file of src/ that nothing imports is dead (or a test-only helper): remove it or move it to test/.',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: [ENTRIES, '\\.d\\.ts$'] },
      to: {},
    },
    {
      name: 'no-test-only-in-src',
      comment:
        'Every file of src/ is reached from an entry (the command line, which also starts the simulator, or the add-on entry): one that only tests import belongs in test/.',
      severity: 'error',
      from: { path: ENTRIES },
      to: { path: '^src/', pathNot: [ENTRIES, '\\.d\\.ts$'], reachable: false },
    },
    {
      name: 'zod-through-shared',
      comment: 'src/ imports zod through src/shared/zod.ts, which sets it up (jitless) before any schema is built.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/shared/zod\\.ts$' },
      to: { path: '(^|/)node_modules/zod/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file (or a package not installed).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  required: [
    {
      name: 'device-models-from-the-table',
      severity: 'error',
      comment:
        'The daemon (trmnl/models.ts) and the simulator (sim-models.ts) read the device model table from its one neutral place, display/panels/device-models.yaml through src/panels/device-models.ts.',
      module: { path: '^(src/trmnl/models|display/firmware/sim-models)\\.ts$' },
      to: { path: '^src/panels/device-models\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^display/gallery/' },
    // type-only imports are dependencies too: a cycle through `import type` is still a cycle
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
