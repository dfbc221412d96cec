import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codesIn } from '../../src/shared/codes.js';
import {
  AbortedError,
  BadResponseError,
  ConnectError,
  CreditsExhaustedError,
  HttpStatusError,
  InvalidRequestError,
  KeyRejectedError,
  NetworkError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
} from '../../src/api/errors.js';
import { EXIT } from '../../src/shared/exit-codes.js';
import { ROOT } from '../helpers/cli.js';

const servicePage = readFileSync(path.join(ROOT, 'docs/reference/service.md'), 'utf8');
const commandsPage = readFileSync(path.join(ROOT, 'docs/reference/commands.md'), 'utf8');

describe('error codes', () => {
  it('every class has its own stable code, and the list names them all', () => {
    const instances = [
      new InvalidRequestError('lat', 'x'),
      new KeyRejectedError('x'),
      new CreditsExhaustedError('x'),
      new RateLimitedError('x', 1),
      new ServiceError('x'),
      new HttpStatusError('x'),
      new TimeoutError('x'),
      new ConnectError('x'),
      new NetworkError('x'),
      new BadResponseError('x', null),
      new AbortedError('x'),
    ];
    expect(instances.map((e) => e.code).sort()).toEqual([...codesIn('api')].sort());
    expect(instances.map((e) => e.name)).toContain('RateLimitedError');
  });

  it.each(codesIn('api'))('%s is documented in docs/reference/service.md', (code) => {
    expect(servicePage).toMatch(new RegExp(`\\| \`${code}\` \\|`));
  });

  it('every exit code is documented in docs/reference/commands.md', () => {
    for (const code of Object.values(EXIT)) expect(commandsPage).toContain(`\`${code}\``);
    expect(commandsPage).toContain('`E_CONFIG`');
  });
});
