import { localeFor, type Locale, type LocaleTable } from '../i18n/locale.js';
import { loadPanel, type PanelProfile } from '../panels/panels.js';
import type { Config } from './schema.js';

/**
 * What the loader resolves from each display's config, once: its panel profile and its locale. Everything after the
 * loader (the cycle, the TRMNL images, the attached panel, `render`) takes them from LoadedConfig through
 * render/display-frame.ts's displayRenderOptions, and never loads a profile or picks a locale again.
 */
export interface ResolvedDisplays {
  /** Each display's panel profile (display/panels/<id>.json), by display id. */
  panels: Map<string, PanelProfile>;
  /** Each display's locale, by display id: its own `locale`, else the config's (default English). */
  locales: Map<string, Locale>;
  /** `displays[0].panel: panel "x": … is not a valid profile: …`: a profile file that cannot be used. */
  problems: string[];
}

/**
 * Resolves the displays of a valid config. `tables`: the user's locale files it names; its codes are known (checked by
 * i18n/config-locales.ts's localeProblems with the schema's problems), so a locale is looked up, not checked again.
 */
export function resolveDisplays(config: Config, tables: ReadonlyMap<string, LocaleTable>): ResolvedDisplays {
  const panels = new Map<string, PanelProfile>();
  const problems: string[] = [];
  config.displays.forEach((d, i) => {
    try {
      panels.set(d.id, loadPanel(d.panel));
    } catch (err) {
      problems.push(`displays[${i}].panel: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  const locales = new Map(config.displays.map((d) => [d.id, localeFor(d.locale ?? config.locale, tables)]));
  return { panels, locales, problems };
}
