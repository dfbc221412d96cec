/** `refresh_rate`: seconds until the display's next update plus a margin for the cycle to finish, bounded. */
const REFRESH_RATE_MIN_S = 60;
const REFRESH_RATE_MAX_S = 86_400;
const REFRESH_RATE_DEFAULT_S = 1_800;

export function refreshRateFor(nextUpdateAt: Date | null, now: number, marginS: number): number {
  if (nextUpdateAt === null || !Number.isFinite(nextUpdateAt.getTime())) return REFRESH_RATE_DEFAULT_S;
  const s = Math.ceil((nextUpdateAt.getTime() - now) / 1000) + marginS;
  return Math.min(REFRESH_RATE_MAX_S, Math.max(REFRESH_RATE_MIN_S, s));
}
