import { describe, expect, it } from 'vitest';
import { statusPlace } from '../../src/config/status-place.js';

describe('where the frame says the status page is', () => {
  const http = (listen: string, public_url?: string) => ({
    listen,
    allowed_hosts: [],
    ...(public_url !== undefined && { public_url }),
  });

  it('is http.public_url when set, else the listen address, with the .local name for a wildcard one', () => {
    expect(statusPlace({ http: http('0.0.0.0:8321', 'http://192.168.1.5:8321/') })).toEqual({
      kind: 'page',
      url: 'http://192.168.1.5:8321',
    });
    expect(statusPlace({ http: http('192.168.1.5:8321') })).toEqual({ kind: 'page', url: 'http://192.168.1.5:8321' });
    expect(statusPlace({ http: http('0.0.0.0:8321'), hostName: 'kitchenpi.lan' })).toEqual({
      kind: 'page',
      url: 'http://kitchenpi.local:8321',
    });
    expect(statusPlace({ http: http('[::]:80'), hostName: 'pi' })).toEqual({ kind: 'page', url: 'http://pi.local' });
  });

  it('is unknown on port 0 (any free port), and none without an http section', () => {
    expect(statusPlace({ http: http('127.0.0.1:0') })).toEqual({ kind: 'page_unknown' });
    expect(statusPlace({ http: undefined })).toEqual({ kind: 'no_page' });
  });
});
