import type { ShownView } from './display-views.js';

/**
 * The household a device's frame is drawn with: its own person alone, or everyone with the display's turn for a
 * screen that has room for one (docs/guides/household.md, "The household frame"); nothing for a display of one outfit.
 */
export function onePersonOf(
  view: Pick<ShownView, 'people' | 'onePerson'>,
  person: string | undefined,
): { people?: ShownView['people']; onePerson?: string } {
  if (view.people === undefined) return {};
  if (person !== undefined) {
    const own = view.people.filter((p) => p.id === person);
    if (own.length > 0) return { people: own, onePerson: person };
  }
  return { people: view.people, ...(view.onePerson !== undefined && { onePerson: view.onePerson }) };
}
