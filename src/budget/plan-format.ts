import type { Figures, PlanReport } from './plan-report.js';

/** The table `outfit-display plan` prints. */

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i <= 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function cells(calls: Figures, credits: Figures): string[] {
  return [
    fmt(calls.maxDay),
    fmt(calls.typicalDay),
    fmt(credits.maxDay),
    fmt(credits.typicalDay),
    fmt(calls.maxMonth),
    `${fmt(credits.maxMonth)} (${credits.maxMonthKey})`,
  ];
}

const pct = (part: number, whole: number): string => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '0%');

/**
 * The household displays: whom each dresses and what a slot buys (one purchase per distinct request, shared by
 * displays on the same schedule), then what the household costs a day and a month, everyone at home.
 */
function householdLines(r: PlanReport): string[] {
  if (r.household === null) return [];
  const lines = ['', 'Household (one purchase per distinct request a slot; everyone at home; none in quiet hours):'];
  for (const d of r.displays) {
    const p = d.purchases;
    if (p.people === null) continue;
    const each = `${p.purchases} purchase${p.purchases === 1 ? '' : 's'} a slot`;
    const distinct = `${p.requests} distinct request${p.requests === 1 ? '' : 's'}`;
    const shared =
      p.sharesWith.length === 0 ? '' : `, ${p.requests - p.purchases} shared with ${p.sharesWith.join(', ')}`;
    lines.push(`  ${d.id}: ${p.people.join(', ')}: ${each} (${distinct}${shared})`);
  }
  const c = r.household.credits;
  lines.push(
    `  the household: ${fmt(c.typicalDay)} credits/day typ, ${fmt(c.maxDay)} max (${c.maxDayDate}); ` +
      `${fmt(c.maxMonth)} credits/month max (${c.maxMonthKey})`,
  );
  return lines;
}

export function formatPlan(r: PlanReport): string {
  const b = r.budget;
  const lines: string[] = [];
  const budgetText = [
    b.creditsPerDay !== null ? `${b.creditsPerDay} credits/day` : null,
    b.creditsPerMonth !== null ? `${b.creditsPerMonth} credits/month` : null,
  ]
    .filter(Boolean)
    .join(', ');
  lines.push(
    `Budget: ${budgetText}; refresh reserve ${b.refreshReserve} credits/day; rate limit ${b.rateLimitPerMinute} requests/min`,
  );
  lines.push(
    `Counted exactly, tick by tick, in ${r.timezone} over the 12 calendar months ${r.months[0] ?? ''} to ${r.months[r.months.length - 1] ?? ''};`,
  );
  lines.push('"max" is the heaviest day or month of those (daylight-saving days included), "typ" the median day.');
  lines.push('');
  const rows: string[][] = [
    ['display', 'schedule', 'calls/day', '', 'credits/day', '', 'calls/month', 'credits/month'],
    ['', '', 'max', 'typ', 'max', 'typ', 'max', 'max (month)'],
  ];
  for (const d of r.displays) {
    const sched = d.configured === 'auto' ? `auto → ${d.schedule}` : d.schedule;
    rows.push([d.id, sched + (d.changeAware ? ' [change-aware]' : ''), ...cells(d.calls, d.credits)]);
  }
  rows.push(['total', '', ...cells(r.total.calls, r.total.credits)]);
  const monthAllow = b.monthAllowance;
  // The month with the least headroom (allowances differ with the month's length when there is a reserve).
  const tight =
    monthAllow === null
      ? null
      : monthAllow
          .map((allow, i) => ({ allow, used: r.total.credits.months[i] ?? 0, key: r.months[i] ?? '' }))
          .reduce((a, m) => (m.allow - m.used < a.allow - a.used ? m : a));
  rows.push([
    'budget',
    b.refreshReserve > 0 ? `(minus ${b.refreshReserve}/day refresh reserve)` : '',
    '',
    '',
    b.dayAllowance === null ? '-' : fmt(b.dayAllowance),
    '',
    '',
    tight === null ? '-' : `${fmt(tight.allow)} (${tight.key})`,
  ]);
  lines.push(...table(rows));
  lines.push(...householdLines(r));
  const ca = r.displays.filter((d) => d.changeAware && d.expectedCredits && d.plainCredits);
  if (ca.length > 0) {
    lines.push('');
    lines.push('Change-aware displays (worst case above: a weather poll and a recommendation every tick):');
    for (const d of ca) {
      const exp = d.expectedCredits!;
      const plain = d.plainCredits!;
      const saved = plain.maxMonth - exp.maxMonth;
      lines.push(
        `  ${d.id}: expected ~${fmt(Math.round(exp.typicalDay * 10) / 10)} credits/day, ~${Math.round(exp.maxMonth)}/month; ` +
          `a recommendation every tick would cost ${fmt(plain.typicalDay)}/day, ${fmt(plain.maxMonth)}/month: ` +
          `expected saving ~${Math.round(saved)} credits/month (${pct(saved, plain.maxMonth)})`,
      );
    }
  }
  lines.push('');
  if (r.overDay || r.overMonth) {
    if (r.proposal) {
      lines.push(
        r.paced
          ? 'OVER BUDGET: the daemon runs the densest schedules that fit instead, so the credits last the whole day:'
          : 'OVER BUDGET (pace_over_budget: false): every tick runs until the budget is spent. Densest schedules that fit:',
      );
      for (const [id, expr] of r.proposal) lines.push(`  ${id}: schedule: "${expr}"`);
    } else {
      lines.push('OVER BUDGET: the governor caps the spending at the budget.');
      lines.push('No schedule of the same hours fits: raise the budget or remove a display.');
    }
  } else {
    const dayNote = b.dayAllowance === null ? '' : `day ${fmt(r.total.credits.maxDay)} of ${fmt(b.dayAllowance)}`;
    const monthNote = tight === null ? '' : `tightest month ${tight.key}: ${fmt(tight.used)} of ${fmt(tight.allow)}`;
    lines.push(`Within budget: ${[dayNote, monthNote].filter(Boolean).join('; ')}.`);
  }
  for (const w of r.warnings) lines.push(w);
  return lines.join('\n') + '\n';
}
