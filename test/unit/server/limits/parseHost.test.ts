import { describe, expect, it } from 'vitest';
import { parseHost, parseOrigin } from '../../../../src/server/limits/parseHost.js';

describe('parseHost', () => {
  it('accepts host[:port] exactly as the URL standard serialises it', () => {
    expect(parseHost('localhost:8787')).toEqual({ hostname: 'localhost', host: 'localhost:8787' });
    expect(parseHost('127.0.0.1')).toEqual({ hostname: '127.0.0.1', host: '127.0.0.1' });
    expect(parseHost('[::1]:8787')).toEqual({ hostname: '[::1]', host: '[::1]:8787' });
    expect(parseHost('API.Example.com')).toEqual({ hostname: 'api.example.com', host: 'api.example.com' });
    expect(parseHost('example.com:80')).toEqual({ hostname: 'example.com', host: 'example.com' });
  });

  it.each([
    ['an @ suffix', 'localhost:8787@evil.example'],
    ['userinfo', 'user:pw@localhost:8787'],
    ['a trailing dot', 'localhost.'],
    ['a trailing dot before the port', 'localhost.:8787'],
    ['a path', 'localhost:8787/x'],
    ['a query', 'localhost?x'],
    ['a fragment', 'localhost#x'],
    ['a backslash', 'localhost\\\\evil'],
    ['an IPv4 shorthand the parser rewrites', '127.1'],
    ['a percent escape', 'local%68ost'],
    ['a space', 'localhost 8787'],
    ['an empty name', ':8787'],
    ['a port past 65535', 'localhost:70000'],
    ['two ports', 'localhost:1:2'],
    ['nothing', ''],
    ['a bad IPv6', '[::1'],
    ['a comma list', 'localhost,evil.example'],
  ])('refuses %s (%j)', (_what, value) => {
    expect(parseHost(value)).toBeUndefined();
  });
});

describe('parseOrigin', () => {
  it('accepts a serialised origin and refuses anything with extra parts', () => {
    expect(parseOrigin('http://localhost:8787')?.host).toBe('localhost:8787');
    for (const bad of [
      'null',
      'http://localhost:8787/',
      'http://u@localhost:8787',
      'http://localhost.:8787',
      'file://x',
      'http://localhost:8787@evil.example',
      'javascript:alert(1)',
    ]) {
      expect(parseOrigin(bad), bad).toBeUndefined();
    }
  });
});
