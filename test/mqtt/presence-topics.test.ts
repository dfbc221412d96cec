import { describe, expect, it } from 'vitest';
import { PresenceTopics } from '../../src/mqtt/presence-topics.js';
import { PresenceBook } from '../../src/household/presence-book.js';
import { FakeClock } from '../helpers/fake-clock.js';

/** The people's presence topics feed the presence book (docs/guides/household.md, "Presence from Home Assistant"). */
describe('presence topics', () => {
  const people = [
    { id: 'anna', name: 'Anna', gender: '', presence_topic: 'homeassistant/person/anna/state', leaves: [] },
    { id: 'ben', name: 'Ben', gender: '', presence_topic: 'house/everyone', leaves: [] },
    { id: 'cleo', name: 'Cleo', gender: '', presence_topic: 'house/everyone', leaves: [] },
    { id: 'dan', name: 'Dan', gender: '', leaves: [] },
  ];

  it('subscribes to each topic once, hands a state to everyone it speaks for, and passes other topics on', () => {
    const clock = new FakeClock();
    const book = new PresenceBook({ personIds: people.map((p) => p.id), clock });
    const topics = new PresenceTopics({ people, onPresence: (id, payload) => book.record(id, payload) });
    expect(topics.topics()).toEqual(['homeassistant/person/anna/state', 'house/everyone']);

    expect(topics.handle('homeassistant/person/anna/state', Buffer.from('Work'))).toBe(true);
    expect(book.presenceOf('anna')).toBe('away');
    expect(topics.handle('house/everyone', Buffer.from('not_home'))).toBe(true);
    expect([book.presenceOf('ben'), book.presenceOf('cleo')]).toEqual(['away', 'away']);
    // Home Assistant's own word, whatever its case and spacing.
    topics.handle('house/everyone', Buffer.from(' Home\n'));
    expect([book.isHome('ben'), book.isHome('cleo')]).toEqual([true, true]);
    // A retained message cleared (empty) says nothing.
    expect(topics.handle('homeassistant/person/anna/state', Buffer.alloc(0))).toBe(true);
    expect(book.presenceOf('anna')).toBe('away');
    // Not a presence topic: left to the publisher's other handlers; a person without a topic stays unknown (at home).
    expect(topics.handle('outfit-display/hallway/refresh', Buffer.from('PRESS'))).toBe(false);
    expect(book.presenceOf('dan')).toBe('unknown');
    expect(book.isHome('dan')).toBe(true);
  });
});
