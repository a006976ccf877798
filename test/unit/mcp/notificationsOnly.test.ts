import { describe, expect, it } from 'vitest';
import { notificationsOnly } from '../../../src/mcp/notificationsOnly.js';

const post = (headers: Record<string, string> = {}) =>
  new Request('http://sbirtools.invalid/mcp', {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
  });
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('notificationsOnly: a POST the route may answer 202 without an MCP server', () => {
  it('takes a notification, a batch of them, and a response to a server request', () => {
    expect(notificationsOnly(post(), initialized)).toBe(true);
    expect(
      notificationsOnly(post(), [
        initialized,
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      ]),
    ).toBe(true);
    expect(notificationsOnly(post(), { jsonrpc: '2.0', id: 3, result: {} })).toBe(true);
    expect(notificationsOnly(post({ 'content-type': 'application/json; charset=utf-8' }), initialized)).toBe(true);
    const noVersion = post();
    noVersion.headers.delete('mcp-protocol-version');
    expect(notificationsOnly(noVersion, initialized)).toBe(true);
  });

  it('leaves every request, and a batch holding one, to the SDK', () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(notificationsOnly(post(), call)).toBe(false);
    expect(notificationsOnly(post(), [initialized, call])).toBe(false);
    expect(notificationsOnly(post(), { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBe(false);
  });

  it('leaves what the SDK would refuse to the SDK, so the client gets its error', () => {
    expect(notificationsOnly(post(), { method: 'notifications/initialized' })).toBe(false); // no jsonrpc
    expect(notificationsOnly(post(), { jsonrpc: '1.0', method: 'notifications/initialized' })).toBe(false);
    expect(notificationsOnly(post(), [])).toBe(false);
    expect(notificationsOnly(post(), 'text')).toBe(false);
    expect(notificationsOnly(post(), [null])).toBe(false);
    expect(
      notificationsOnly(
        post(),
        Array.from({ length: 101 }, () => initialized),
      ),
    ).toBe(false);
    expect(notificationsOnly(post({ accept: 'application/json' }), initialized)).toBe(false); // 406
    expect(notificationsOnly(post({ 'content-type': 'text/plain' }), initialized)).toBe(false); // 415
    expect(notificationsOnly(post({ 'mcp-protocol-version': '1999-01-01' }), initialized)).toBe(false); // 400
  });
});
