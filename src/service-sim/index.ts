/** The simulated outfit service: public API. */
export { DEMO_API_KEY, startServiceSim } from './server.js';
export type { RunningServiceSim, ServiceSimOptions } from './server.js';
export type { Fault, FaultKind, FaultPath } from './faults.js';
export type { SimRequestRecord, SimStats } from './stats.js';
export { CREDIT_COSTS, keyFingerprint } from './credits.js';
