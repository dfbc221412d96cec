/**
 * The simulated outfit service's parts the tests use, in one import. Not in src/: the daemon and the command line
 * import service-sim/server.ts itself, and nothing shipped needs a barrel.
 */
export { DEMO_API_KEY, startServiceSim } from '../../src/service-sim/server.js';
export type { RunningServiceSim, ServiceSimOptions } from '../../src/service-sim/server.js';
export type { Fault, FaultKind, FaultPath } from '../../src/service-sim/faults.js';
export type { SimRequestRecord, SimStats } from '../../src/service-sim/stats.js';
export { CREDIT_COSTS, keyFingerprint } from '../../src/service-sim/credits.js';
