import { fill } from '../../i18n/labels.js';
import type { FrameElement } from '../draw/drawn-log.js';
import { scriptName, unshownScripts } from '../text/unshown-scripts.js';
import type { FrameContent } from './content.js';

/**
 * The service's texts in a script no font here has (text/unshown-scripts.ts) are said to be so, in the display's
 * language, instead of drawn as a row of hollow boxes: the outfit becomes "This outfit is in a script this display
 * has no font for (Japanese)", an alert "Weather alert in a script…" (its severity kept), and the reasoning and the
 * weather's description, which the outfit's note and the condition icon stand for, are left out. Pure.
 */

/** A script no font has, and the texts of the frame it was in. */
export interface UnshownScript {
  /** ISO 15924: "Jpan", "Kore", "Hani", "Deva"… */
  code: string;
  /** In English: "Japanese", "Devanagari". */
  name: string;
  /** The elements whose text was in it, each once. */
  elements: FrameElement[];
}

/** The texts of a frame are all checked against the face the outfit is set in (the faces cover the same scripts). */
const FACE = 'condensed';

export function withUnshownScripts(c: FrameContent): { content: FrameContent; unshown: UnshownScript[] } {
  const unshown: UnshownScript[] = [];
  const note = (element: FrameElement, text: string | null): string[] => {
    const codes = text === null ? [] : unshownScripts(text, FACE);
    for (const code of codes) {
      let u = unshown.find((x) => x.code === code);
      if (!u) unshown.push((u = { code, name: scriptName(code, 'en'), elements: [] }));
      if (!u.elements.includes(element)) u.elements.push(element);
    }
    return codes;
  };
  const l = c.locale.labels;
  const named = (codes: string[]): string => codes.map((code) => scriptName(code, c.locale.tag)).join(', ');
  const outfitCodes = note('outfit', c.outfit);
  const outfit = outfitCodes.length > 0 ? fill(l.script_no_font, { script: named(outfitCodes) }) : c.outfit;
  const reasoning = note('reasoning', c.reasoning).length > 0 ? null : c.reasoning;
  const description = note('condition', c.description).length > 0 ? null : c.description;
  // Two alerts in the script read alike: the first (the most severe) is kept.
  const alerts = c.alerts
    .map((a) => {
      const codes = note('alerts', a.text);
      return codes.length > 0 ? { ...a, text: fill(l.alert_script_no_font, { script: named(codes) }) } : a;
    })
    .filter((a, i, all) => all.findIndex((b) => b.text === a.text) === i);
  if (unshown.length === 0) return { content: c, unshown };
  return { content: { ...c, outfit, reasoning, description, alerts }, unshown };
}
