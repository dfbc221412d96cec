import { z } from '../shared/zod.js';
import { describeIssues } from '../shared/describe-issue.js';
import { RecommendationSchema, type StoredRecommendation } from '../api/schemas.js';
import { additionsForAnswer, WARMTH } from '../domain/warmth.js';
import type { FramePerson } from '../render/frame.js';

/**
 * The household file `render --input` reads beside a single Recommendation (docs/guides/household.md):
 * `{"people": [{"id", "name", "offset_c"?, "recommendation": {…}}]}`, each recommendation as the service sent it or as
 * we stored it (with `fetched_at`). Each person's additions are worked out from their offset as the daemon does
 * (domain/warmth.ts). A file that is not one fails with every problem's path (`people[1].recommendation.outfit`), as
 * bad usage (exit 2): the file is what the user gave the command.
 */

const PersonSchema = z.object({
  id: z.string().regex(/^[a-z0-9_-]+$/, 'must be lower-case letters, digits, "_" or "-"'),
  name: z.string().trim().min(1, 'must not be empty').max(40, 'must be at most 40 characters'),
  offset_c: z.number().min(-WARMTH.maxC).max(WARMTH.maxC).optional(),
  recommendation: RecommendationSchema,
});

const HouseholdSchema = z.object({ people: z.array(PersonSchema).min(1, 'must name at least one person') });

/** Whether parsed JSON is meant as a household file (an object with `people`) rather than a Recommendation. */
export function isHouseholdFile(data: unknown): boolean {
  return typeof data === 'object' && data !== null && !Array.isArray(data) && 'people' in data;
}

/** A recommendation as stored: `fetched_at` as written, else its `generated_at`, else `now`. */
function stored(rec: z.infer<typeof RecommendationSchema>, raw: unknown, now: Date): StoredRecommendation {
  const fetched = (raw as { fetched_at?: unknown } | null)?.fetched_at;
  const fetchedAt =
    typeof fetched === 'string' && !Number.isNaN(Date.parse(fetched))
      ? fetched
      : (rec.generated_at ?? now.toISOString());
  return { ...rec, fetched_at: fetchedAt };
}

/** The people of a household file at `path` (its parsed JSON `data`), as the frame gets them. */
export function readHousehold(path: string, data: unknown, now = new Date()): FramePerson[] {
  const parsed = HouseholdSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(`${path} is not a valid household file: ${describeIssues(parsed.error).join('; ')}`);
  const raw = (data as { people: unknown[] }).people;
  const ids = new Set<string>();
  return parsed.data.people.map((p, i) => {
    if (ids.has(p.id))
      throw new Error(`${path} is not a valid household file: people[${i}].id: "${p.id}" is used twice`);
    ids.add(p.id);
    const rec = stored(p.recommendation, (raw[i] as { recommendation?: unknown }).recommendation, now);
    const offsetC = p.offset_c ?? 0;
    return { id: p.id, name: p.name, rec, offsetC, additions: additionsForAnswer(rec, offsetC), away: false };
  });
}
