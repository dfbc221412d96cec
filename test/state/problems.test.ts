import { describe, expect, it } from 'vitest';
import { displayHealth } from '../../src/http/health.js';
import { ProblemBook } from '../../src/state/problems.js';
import { diagnosticsPayload } from '../../src/state/state-payload.js';
import { TagStatusBook } from '../../src/state/tag-status.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { testViews } from '../helpers/views.js';
import { display } from '../fixtures/display.js';
import { update } from '../fixtures/frames.js';

/**
 * The one problem list: the book publishers report on, the view that lists every source with its words, and the
 * readers (/healthz, the diagnostics) that show a source they were never told of, while the fixed fields of the
 * built-in sources stay as they were.
 */

describe('the problem book', () => {
  it('keeps since while the same code stands, tells only of a change, and clears', () => {
    const problems = new ProblemBook();
    const heard: string[] = [];
    problems.onChange((id) => heard.push(id));
    problems.set('hall', 'webhook', 'post', {
      code: 'E_WEBHOOK_POST',
      message: 'HTTP 500',
      since: '2026-01-31T07:00:00.000Z',
    });
    problems.set('hall', 'webhook', 'post', {
      code: 'E_WEBHOOK_POST',
      message: 'HTTP 500',
      since: '2026-01-31T07:05:00.000Z',
    });
    problems.set('hall', 'webhook', 'post', {
      code: 'E_WEBHOOK_POST',
      message: 'HTTP 503',
      since: '2026-01-31T07:10:00.000Z',
    });
    expect(problems.list('hall')).toEqual([
      { source: 'webhook', code: 'E_WEBHOOK_POST', message: 'HTTP 503', since: '2026-01-31T07:00:00.000Z' },
    ]);
    expect(heard).toEqual(['hall', 'hall']);
    problems.set('hall', 'webhook', 'post', null);
    problems.set('hall', 'webhook', 'post', null);
    expect(problems.list('hall')).toEqual([]);
    expect(heard).toHaveLength(3);
  });

  it('holds the tags’ problems as one source among others (TagStatusBook is a view of it)', () => {
    const problems = new ProblemBook();
    const tags = new TagStatusBook(problems);
    tags.set('hall', '0000021EEF5A3B1C', {
      mac: '0000021EEF5A3B1C',
      code: 'E_OEPL_PUSH',
      message: 'HTTP 500',
      since: '2026-01-31T07:00:00.000Z',
    });
    problems.set('hall', 'webhook', 'post', {
      code: 'E_WEBHOOK_POST',
      message: 'HTTP 500',
      since: '2026-01-31T07:01:00.000Z',
    });
    expect(problems.list('hall').map((p) => p.source)).toEqual(['tag', 'webhook']);
    expect(tags.get('hall')).toMatchObject({ mac: '0000021EEF5A3B1C', code: 'E_OEPL_PUSH' });
  });
});

describe('the view’s one list', () => {
  it('lists every source in order with its words; a source nobody described is shown by its name', () => {
    const d = display('hall');
    const clock = new FakeClock(Date.parse('2026-01-31T07:00:00.000Z'));
    const problems = new ProblemBook();
    const side = testViews({ displays: [d], clock, problems });
    problems.set('hall', 'tag', '0000021EEF5A3B1C', {
      code: 'E_OEPL_MAC_UNKNOWN',
      message: 'mac not found',
      since: '2026-01-31T07:00:00.000Z',
      detail: { mac: '0000021EEF5A3B1C' },
    });
    problems.set('hall', 'carrier-pigeon', 'x', {
      code: 'E_PIGEON_LOST',
      message: 'no pigeon came back',
      since: '2026-01-31T07:00:00.000Z',
    });
    const v = side.show(
      update(d, 1, {
        renderProblem: { code: 'E_RENDER_TIMEOUT', message: 'no answer', since: '2026-01-31T06:00:00.000Z' },
      }),
    );
    expect(v.problems.map((p) => [p.source, p.label, p.text])).toEqual([
      ['render', 'Drawing', 'E_RENDER_TIMEOUT: no answer'],
      ['tag', 'OpenEPaperLink', 'E_OEPL_MAC_UNKNOWN: tag 0000021EEF5A3B1C: mac not found'],
      ['carrier-pigeon', 'carrier-pigeon', 'E_PIGEON_LOST: no pigeon came back'],
    ]);
    // The fixed fields are read from the list.
    expect(v.tagProblem).toMatchObject({ mac: '0000021EEF5A3B1C', code: 'E_OEPL_MAC_UNKNOWN' });
    const h = displayHealth({
      id: 'hall',
      status: v.status,
      hasFrame: true,
      hasOutfit: true,
      lastSuccessAt: v.lastSuccessAt,
      staleSince: null,
      problems: v.problems,
      attached: false,
    });
    expect(h.ok).toBe(false);
    expect(h.reason.split('; ')).toEqual([
      'the frame cannot be drawn (the last good one is on show): E_RENDER_TIMEOUT: no answer',
      'an OpenEPaperLink tag is not fed: E_OEPL_MAC_UNKNOWN: tag 0000021EEF5A3B1C: mac not found',
      'carrier-pigeon fails: E_PIGEON_LOST: no pigeon came back',
    ]);
    expect(h).toMatchObject({
      render_problem: 'E_RENDER_TIMEOUT: no answer',
      tag_problem: 'E_OEPL_MAC_UNKNOWN: tag 0000021EEF5A3B1C: mac not found',
      state_problem: null,
      output_problem: null,
    });
    expect(h).not.toHaveProperty('panel_problem');
    const diag = JSON.parse(diagnosticsPayload(v.status, null, 'UTC', { problems: v.problems })) as Record<
      string,
      unknown
    >;
    expect(diag).toMatchObject({
      render_problem: 'E_RENDER_TIMEOUT: no answer',
      tag_problem: 'E_OEPL_MAC_UNKNOWN: tag 0000021EEF5A3B1C: mac not found',
      output_problem: null,
    });
    expect(diag.problems).toEqual(v.problems.map((p) => p.text));
  });
});
