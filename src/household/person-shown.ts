/**
 * What a person's newest frame shows of them, as the household's Home Assistant device reports it (src/mqtt/
 * person-discovery.ts): the daemon's state knows it, the MQTT publisher asks for it by person.
 */
export interface PersonShown {
  /** The service's outfit for them, as it wrote it; null: nothing bought for them yet. */
  outfit: string | null;
  /** The garments of their outfit (garment ids). */
  garments: readonly string[];
  /** What their own warmth added (garment ids, domain/warmth.ts additionsFor), drawn "+ for <name>". */
  additions: readonly string[];
}
