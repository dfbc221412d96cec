import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PersonSchema } from '../../src/config/schema.js';
import { warmthFrames } from '../../src/daemon/warmth-frames.js';
import { WARMTH } from '../../src/domain/warmth.js';
import { PresenceBook } from '../../src/household/presence-book.js';
import { WarmthBook } from '../../src/household/warmth-book.js';
import { MqttPublisher, type MqttPublisherOptions } from '../../src/mqtt/mqtt-publisher.js';
import type { HouseholdMqtt } from '../../src/mqtt/person-entities.js';
import { budgetStatus } from '../fixtures/budget-status.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';
import { mqttConfig } from '../fixtures/mqtt-config.js';
import { rec } from '../fixtures/rec.js';
import { capturingLogger, silentLogger } from '../helpers/capturing-logger.js';
import { manualClock } from '../helpers/fake-clock.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { readRetained, watch, type Watcher } from '../helpers/mqtt-watch.js';
import { testViews } from '../helpers/views.js';
import { checkDeviceDiscovery, checkStates } from './ha-checker.js';

/**
 * The household's people over a real Mosquitto: Home Assistant's buttons and number (as HA sends them) move the
 * warmth book, once a frame; each person's state and device are retained; a person no longer configured is removed.
 */

const anna = PersonSchema.parse({ id: 'anna', name: 'Anna', gender: 'female' });
const ben = PersonSchema.parse({ id: 'ben', name: 'Ben', gender: 'male' });
const hallway = display('hallway', { people: ['anna', 'ben'] });

describe('the people over MQTT, against Mosquitto', () => {
  let broker: Mosquitto;
  let dir: string;
  const publishers: MqttPublisher[] = [];
  const books: WarmthBook[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    dir = await mkdtemp(path.join(tmpdir(), 'people-int-'));
  });
  afterEach(async () => {
    await Promise.all(publishers.splice(0).map((p) => p.stop()));
    await Promise.all(books.splice(0).map((b) => b.flushed()));
  });
  afterAll(async () => {
    await broker?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  async function make(base: string, people = [anna, ben], over: Partial<MqttPublisherOptions> = {}) {
    const clock = manualClock();
    const cap = capturingLogger();
    const warmth = new WarmthBook({
      personIds: people.map((p) => p.id),
      stateDir: path.join(dir, base),
      clock,
      logger: cap.logger,
    });
    books.push(warmth);
    await mkdir(path.join(dir, base), { recursive: true });
    await warmth.load();
    const presence = new PresenceBook({ personIds: people.map((p) => p.id), clock });
    const household: HouseholdMqtt = { people, warmth, presence };
    const side = testViews({ displays: [hallway], budget: budgetStatus, clock });
    const p = new MqttPublisher({
      mqtt: mqttConfig(broker.url, { base_topic: base, discovery_prefix: `ha-${base}` }),
      password: null,
      displays: [hallway],
      views: side.views,
      timezone: 'Europe/Berlin',
      logger: cap.logger,
      onRefresh: () => undefined,
      swVersion: '0.1.0',
      household,
      // The book's clock: the state fades the offset to the same moment the book dated it.
      clock,
      ...over,
    });
    publishers.push(p);
    await p.start();
    /** The codes logged so far. */
    const codes = (): string[] =>
      cap
        .text()
        .split('\n')
        .filter((l) => l.includes('"code"'))
        .map((l) => (JSON.parse(l) as { code: string }).code);
    return { p, warmth, presence, clock, side, codes };
  }

  /** The newest state of a person the watcher saw. */
  const stateOf = (w: Watcher, topic: string): Record<string, unknown> | null => {
    const m = w.latest(topic);
    return m === undefined ? null : (JSON.parse(m.payload.toString()) as Record<string, unknown>);
  };

  it('a press on the feedback topic moves the offset once a frame; the state follows', async () => {
    const base = 'od-vote';
    const { warmth, side, codes, clock } = await make(base);
    const frames = warmthFrames(warmth);
    const w = await watch(broker.url, [`${base}/people/+/state`]);
    const annaState = `${base}/people/anna/state`;
    await w.waitFor(() => stateOf(w, annaState)?.offset_c === 0, 'the retained state at offset 0');

    for (let i = 0; i < 3; i++) await w.client.publishAsync(`${base}/people/anna/feedback`, 'too_cold', { qos: 1 });
    await w.waitFor(() => stateOf(w, annaState)?.offset_c === -WARMTH.stepC, 'one step colder');
    await vi.waitFor(() => expect(codes()).toEqual(['W_WARMTH_VOTE_IGNORED', 'W_WARMTH_VOTE_IGNORED']));
    expect(warmth.offsetOf('anna', clock.now())).toBe(-WARMTH.stepC);
    // Ben is untouched.
    expect(stateOf(w, `${base}/people/ben/state`)).toMatchObject({ offset_c: 0, presence: 'unknown', away: false });

    // A new answer of the display that dresses Anna: her next press counts again; a redraw of the same one does not.
    await frames.publish(side.show(update(hallway, 'h1', { rec: rec({ fetchedAt: '2026-01-31T07:30:00.000Z' }) })));
    await frames.publish(side.show(update(hallway, 'h1b', { rec: rec({ fetchedAt: '2026-01-31T07:30:00.000Z' }) })));
    await w.client.publishAsync(`${base}/people/anna/feedback`, 'too_cold', { qos: 1 });
    await w.waitFor(() => stateOf(w, annaState)?.offset_c === -2 * WARMTH.stepC, 'a second step after a new frame');
    await w.client.publishAsync(`${base}/people/anna/feedback`, 'too_cold', { qos: 1 });
    await vi.waitFor(() => expect(codes()).toHaveLength(3));
    expect(codes()[2]).toBe('W_WARMTH_VOTE_IGNORED');
    await warmth.flushed();
    expect(warmth.offsetOf('anna', clock.now())).toBe(-2 * WARMTH.stepC);
    await w.close();
  });

  it('sets the offset on offset/set; refuses a bad number, an unknown vote and a retained press', async () => {
    const base = 'od-set';
    const seed = await watch(broker.url, []);
    // Left retained by somebody: must not vote at every (re)start.
    await seed.client.publishAsync(`${base}/people/ben/feedback`, 'too_warm', { retain: true, qos: 1 });
    const { warmth, codes, clock } = await make(base);
    const w = await watch(broker.url, [`${base}/people/+/state`]);
    const annaState = `${base}/people/anna/state`;
    await w.client.publishAsync(`${base}/people/anna/offset/set`, '-3.5', { qos: 1 });
    await w.waitFor(() => stateOf(w, annaState)?.offset_c === -3.5, 'the offset set');
    await w.client.publishAsync(`${base}/people/anna/offset/set`, 'cold', { qos: 1 });
    await w.client.publishAsync(`${base}/people/anna/feedback`, 'freezing', { qos: 1 });
    await w.client.publishAsync(`${base}/people/carl/feedback`, 'too_cold', { qos: 1 });
    await w.client.publishAsync(`${base}/people/anna/offset/set`, '9', { qos: 1 });
    await w.waitFor(() => stateOf(w, annaState)?.offset_c === WARMTH.maxC, 'a set beyond the clamp, clamped');
    expect(codes()).toEqual(['W_WARMTH_OFFSET_REFUSED', 'W_FEEDBACK_UNKNOWN', 'W_PERSON_UNKNOWN']);
    expect(warmth.offsetOf('ben', clock.now())).toBe(0);
    await seed.client.publishAsync(`${base}/people/ben/feedback`, '', { retain: true, qos: 1 });
    await seed.close();
    await w.close();
  });

  it('sends presence as seen in the person state', async () => {
    const base = 'od-presence';
    const { presence } = await make(base);
    const w = await watch(broker.url, [`${base}/people/+/state`]);
    presence.record('ben', 'not_home');
    await w.waitFor(() => stateOf(w, `${base}/people/ben/state`)?.away === true, 'Ben away');
    expect(stateOf(w, `${base}/people/ben/state`)).toMatchObject({ presence: 'away', name: 'Ben' });
    await w.close();
  });

  it('announces each person as a Home Assistant device that HA accepts, with the states it needs', async () => {
    const base = 'od-ha-people';
    await make(base);
    const filters = [`ha-${base}/device/+/config`, `${base}/people/#`];
    await expect
      .poll(async () => [...(await readRetained(broker.url, filters)).keys()].sort(), { timeout: 10_000 })
      .toEqual([
        `ha-${base}/device/${base}_PERSON_anna/config`,
        `ha-${base}/device/${base}_PERSON_ben/config`,
        `ha-${base}/device/${base}_hallway/config`,
        `${base}/people/anna/state`,
        `${base}/people/ben/state`,
      ]);
    const retained = await readRetained(broker.url, filters);
    for (const id of ['anna', 'ben']) {
      const topic = `ha-${base}/device/${base}_PERSON_${id}/config`;
      const payload = JSON.parse(retained.get(topic)!.toString()) as { components: Record<string, never> };
      expect(checkDeviceDiscovery(topic, payload, `ha-${base}`)).toEqual([]);
      expect(checkStates(payload, retained).problems).toEqual([]);
      expect(payload.components.too_cold).toMatchObject({
        command_topic: `${base}/people/${id}/feedback`,
        payload_press: 'too_cold',
      });
      expect(payload.components.too_warm).toMatchObject({
        command_topic: `${base}/people/${id}/feedback`,
        payload_press: 'too_warm',
      });
      expect(payload.components.warmth_offset).toMatchObject({
        platform: 'number',
        command_topic: `${base}/people/${id}/offset/set`,
      });
    }
  });

  it('removes the device and state of a person no longer configured, and nothing else', async () => {
    const base = 'od-people-removal';
    const first = await make(base);
    const filters = [`ha-${base}/#`, `${base}/people/#`];
    await expect.poll(async () => (await readRetained(broker.url, filters)).size, { timeout: 10_000 }).toBe(5);
    await first.p.stop();
    await make(base, [anna]);
    await expect
      .poll(async () => [...(await readRetained(broker.url, filters)).keys()].sort(), { timeout: 10_000 })
      .toEqual([
        `ha-${base}/device/${base}_PERSON_anna/config`,
        `ha-${base}/device/${base}_hallway/config`,
        `${base}/people/anna/state`,
      ]);
  });

  it("the embedded broker takes a guest's press on the people's topics (as Home Assistant sends it), never retained", async () => {
    const clock = manualClock();
    const warmth = new WarmthBook({ personIds: ['anna'], stateDir: dir, clock, logger: silentLogger() });
    books.push(warmth);
    await warmth.load();
    const side = testViews({ displays: [hallway], clock });
    const p = new MqttPublisher({
      mqtt: mqttConfig('embedded'),
      password: null,
      displays: [hallway],
      views: side.views,
      timezone: 'Europe/Berlin',
      logger: silentLogger(),
      onRefresh: () => undefined,
      embeddedPort: 0,
      household: { people: [anna], warmth, presence: null },
      clock,
    });
    publishers.push(p);
    await p.start();
    const w = await watch(p.url, ['outfit-display/people/anna/state']);
    await w.client.publishAsync('outfit-display/people/anna/offset/set', '-2', { qos: 1 });
    await w.waitFor((all) => all.some((m) => m.payload.toString().includes('"offset_c":-2')), 'the set taken');
    // A retained press is refused by the broker (the guest is disconnected): the offset stays.
    await w.client.publishAsync('outfit-display/people/anna/feedback', 'too_cold', { qos: 0, retain: true });
    await vi.waitFor(() => expect(w.client.connected).toBe(false));
    expect(warmth.offsetOf('anna', clock.now())).toBe(-2);
    await w.close();
  });

  it('ignores a command larger than any press (W_MQTT_COMMAND_TOO_LARGE), and clears the people with discovery off', async () => {
    const base = 'od-people-big';
    const first = await make(base);
    const w = await watch(broker.url, []);
    await w.client.publishAsync(`${base}/people/anna/offset/set`, `-${'1'.repeat(2000)}`, { qos: 1 });
    await vi.waitFor(() => expect(first.codes()).toEqual(['W_MQTT_COMMAND_TOO_LARGE']));
    expect(first.warmth.offsetOf('anna', first.clock.now())).toBe(0);
    await w.close();
    const filters = [`ha-${base}/device/+/config`];
    await expect.poll(async () => (await readRetained(broker.url, filters)).size, { timeout: 10_000 }).toBe(3);
    await first.p.stop();
    await make(base, [anna, ben], {
      mqtt: mqttConfig(broker.url, { base_topic: base, discovery_prefix: `ha-${base}`, discovery: false }),
      haDiscovery: () => false,
    });
    await expect
      .poll(async () => [...(await readRetained(broker.url, filters)).keys()], { timeout: 10_000 })
      .toEqual([]);
  });

  it('re-sends the people after homeassistant/status online', async () => {
    const base = 'od-people-online';
    await make(base, [anna], { haOnlineDelayMs: { min: 0, max: 0 } });
    const w = await watch(broker.url, [`ha-${base}/device/+/config`, `${base}/people/+/state`]);
    await w.waitFor((all) => all.length >= 3, 'the retained configs and state');
    w.all.length = 0;
    await w.client.publishAsync(`ha-${base}/status`, 'online');
    await w.waitFor(
      (all) => all.some((m) => m.topic === `ha-${base}/device/${base}_PERSON_anna/config` && !m.retain),
      'the person device re-sent',
    );
    await w.waitFor((all) => all.some((m) => m.topic === `${base}/people/anna/state`), 'the person state re-sent');
    expect(w.all.filter((m) => m.topic.includes('PERSON_')).map((m) => m.retain)).toEqual([false]);
    await w.close();
  });
});
