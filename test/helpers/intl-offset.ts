/**
 * Intl's offset (local minus UTC, ms) at an instant in `zone`, read here on its own: the oracle the zone tables
 * (src/time/zone-table.ts) are held to, never through zoned-time.ts, which reads a table where it has one.
 */
export function intlOffset(zone: string): (t: number) => number {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  return (t) => {
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(t)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, (p.hour ?? 0) % 24, p.minute ?? 0, p.second ?? 0) - Math.floor(t / 1000) * 1000;
  };
}
