import { EXIT, type ExitCode } from '../shared/exit-codes.js';
import { offsetAt } from '../time/zoned-time.js';
import { buildZoneTable } from '../time/zone-table.js';
import { isTimeZone } from '../time/zone-names.js';
import { UsageError } from './usage-error.js';

/**
 * `zone-table ZONE FROM TO`: not for people. The daemon (`run`) starts it to have its zone's offsets made by Intl in
 * another process (daemon/zone-table-child.ts); it writes the table (time/zone-table.ts) as one line of JSON.
 */
export function zoneTableCommand(argv: string[]): Promise<ExitCode> {
  const [zone, from, to, ...more] = argv;
  const ms = (v: string | undefined): number | null => (v !== undefined && /^-?\d{1,15}$/.test(v) ? Number(v) : null);
  const start = ms(from);
  const end = ms(to);
  if (zone === undefined || start === null || end === null || more.length > 0 || start >= end) {
    throw new UsageError(`zone-table takes a zone and two instants in ms since the epoch, the first earlier (got "${argv.join(' ')}")`);
  }
  if (!isTimeZone(zone)) throw new UsageError(`zone-table: "${zone}" is not a time zone Intl knows`);
  process.stdout.write(`${JSON.stringify(buildZoneTable(zone, start, end, (t) => offsetAt(t, zone)))}\n`);
  return Promise.resolve(EXIT.OK);
}
