/**
 * A finite number, else null: a reading or figure that is missing, NaN or infinite (a budget without a limit) is
 * written as null in JSON (which has no Infinity) and skipped by whatever reads readings.
 */
export function numberOrNull(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}
