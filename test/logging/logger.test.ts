import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RateLimitedError, ServiceError } from '../../src/api/errors.js';
import { addLogSecrets, createLogger, logFormat, serializeError } from '../../src/log/logging.js';
import { prettyLine } from '../../src/log/pretty-destination.js';

/** A stream that says it is (or is not) a terminal, and keeps what is written to it. */
function sink(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream: PassThrough & { isTTY?: boolean } = new PassThrough();
  stream.isTTY = isTTY;
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
}

describe('one shape for a failure in the log', () => {
  it('an Error: type, message, code and its safe fields; never a request, headers or a cause', () => {
    const err = Object.assign(
      new ServiceError('HTTP 503: upstream model overloaded', { status: 503, cause: new Error('socket') }),
      {
        request: { headers: { authorization: 'Bearer sk_live_secret' } },
        headers: { 'access-token': 'tok' },
      },
    );
    expect(serializeError(err)).toEqual({
      type: 'ServiceError',
      message: 'HTTP 503: upstream model overloaded',
      code: 'E_SERVICE',
      status: 503,
      retryable: true,
    });
    expect(serializeError(new RateLimitedError('HTTP 429', 2000))).toMatchObject({
      code: 'E_RATE_LIMITED',
      retryAfterMs: 2000,
    });
  });

  it('anything else: its text as the message', () => {
    expect(serializeError('disk full')).toEqual({ type: 'Error', message: 'disk full' });
    expect(serializeError(undefined)).toEqual({ type: 'Error', message: 'undefined' });
  });

  it('the logger applies it to `err` in every line, in child loggers too', () => {
    const s = sink(false);
    const log = createLogger({ level: 'info', secrets: [], destination: s.stream, env: {} });
    const err = Object.assign(new Error('cannot save'), {
      code: 'E_STATE_WRITE',
      req: { headers: { authorization: 'x' } },
    });
    log.child({ part: 'cycle' }).error({ err, display: 'hallway' }, 'cycle failed');
    const line = JSON.parse(s.text()) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'error',
      part: 'cycle',
      display: 'hallway',
      err: { type: 'Error', message: 'cannot save', code: 'E_STATE_WRITE' },
    });
    expect(s.text()).not.toContain('authorization');
    expect(s.text()).not.toContain('stack');
  });
});

describe('no secret in a log line: the one redactor over every line', () => {
  const KEY = 'sk_live_LOGtest4e1b9c';
  const PASSWORD = 'pw "quoted" \\ back';

  it('redacts the loaded secrets wherever a part writes them: message, err, fields, nested, as JSON stays valid', () => {
    const s = sink(false);
    const log = createLogger({ level: 'info', secrets: [KEY, PASSWORD, null], destination: s.stream, env: {} });
    const err = Object.assign(new Error(`HTTP 401: invalid API key ${KEY}`), { code: 'E_KEY_REJECTED' });
    log.child({ part: 'api' }).error({ err, sent: { header: `Bearer ${KEY}`, list: [PASSWORD] } }, `rejected ${KEY}`);
    log.warn({ code: 'W_X', reason: `connack: bad password ${PASSWORD}` }, 'MQTT refused');
    const lines = s
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      msg: 'rejected [redacted]',
      err: { code: 'E_KEY_REJECTED', message: 'HTTP 401: invalid API key [redacted]' },
      sent: { header: 'Bearer [redacted]', list: ['[redacted]'] },
    });
    expect(lines[1]).toMatchObject({ level: 'warn', code: 'W_X', reason: 'connack: bad password [redacted]' });
    expect(s.text()).not.toContain('LOGtest');
    expect(s.text()).not.toContain('quoted');
  });

  it('on a terminal too', () => {
    const s = sink(true);
    createLogger({ level: 'info', secrets: [KEY], destination: s.stream, env: {} }).error(
      { err: new Error(`bad ${KEY}`) },
      'failed',
    );
    expect(s.text()).toMatch(/ ERROR failed \(bad \[redacted\]\)\n$/);
  });

  it('learns secrets that come later (a reload, the Supervisor), through any child, for the whole family', () => {
    const s = sink(false);
    const log = createLogger({ level: 'info', secrets: [], destination: s.stream, env: {} });
    const child = log.child({ part: 'supervisor' });
    log.info(`before ${KEY}`);
    addLogSecrets(child, [KEY]);
    log.info(`after ${KEY}`);
    child.child({ part: 'mqtt' }).info({ key: KEY }, 'child');
    const lines = s
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual([`before ${KEY}`, 'after [redacted]', 'child']);
    expect(lines[2]).toMatchObject({ key: '[redacted]' });
  });

  it('a line without secrets is written as pino wrote it', () => {
    const s = sink(false);
    createLogger({ level: 'info', secrets: [KEY], destination: s.stream, env: {} }).info(
      { path: 'C:\\dir "x"' },
      'plain',
    );
    expect(JSON.parse(s.text())).toMatchObject({ path: 'C:\\dir "x"', msg: 'plain' });
  });
});

describe('log format', () => {
  it('JSON through a pipe, readable on a terminal, OUTFIT_LOG_FORMAT over both', () => {
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({ OUTFIT_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ OUTFIT_LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(() => logFormat({ OUTFIT_LOG_FORMAT: 'yaml' }, false)).toThrow(
      expect.objectContaining({ code: 'E_CONFIG', file: 'OUTFIT_LOG_FORMAT' }),
    );
  });

  it('on a terminal: one line of time, level, part, message, code, then the other fields', () => {
    const s = sink(true);
    const log = createLogger({ level: 'info', secrets: [], destination: s.stream, env: {} });
    log
      .child({ part: 'budget' })
      .warn({ err: new ServiceError('HTTP 500: oops', { status: 500 }), attempt: 2 }, 'request not sent: trying again');
    log.child({ part: 'api' }).warn({ code: 'W_RESPONSE_SHAPE', field: 'weather.temp' }, 'accepted');
    log.info('started');
    const lines = s.text().split('\n');
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN {2}budget: request not sent: trying again \[E_SERVICE\] \(HTTP 500: oops\) {2}attempt=2$/,
    );
    expect(lines[1]).toMatch(/ WARN {2}api: accepted \[W_RESPONSE_SHAPE\] {2}field=weather\.temp$/);
    expect(lines[2]).toMatch(/ INFO {2}started$/);
    expect(lines[3]).toBe('');
    expect(s.text()).not.toContain('{"level"');
  });

  it('through a pipe: JSON lines; with OUTFIT_LOG_FORMAT=pretty, readable', () => {
    const json = sink(false);
    createLogger({ level: 'info', secrets: [], destination: json.stream, env: {} }).warn({ code: 'W_X' }, 'hello');
    expect(JSON.parse(json.text())).toMatchObject({ level: 'warn', code: 'W_X', msg: 'hello', app: 'outfit-display' });
    const forced = sink(false);
    createLogger({ level: 'info', secrets: [], destination: forced.stream, env: { OUTFIT_LOG_FORMAT: 'pretty' } }).warn(
      { code: 'W_X' },
      'hello',
    );
    expect(forced.text()).toMatch(/ WARN {2}hello \[W_X\]\n$/);
  });

  it('a line that is not JSON is passed on as it is', () => {
    expect(prettyLine('not json')).toBe('not json\n');
  });
});
