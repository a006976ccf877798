import { randomUUID } from 'node:crypto';
import { SbirtoolsError } from '../../core/errors.js';
import { importOptional } from '../../core/optionalPeer.js';
import type { Cell, SharedStore, StoredAnswer, StoredTableInfo } from './sharedStore.js';

/** Options of createRedisStore(). */
export interface RedisStoreOptions {
  /** `redis://host:port[/db]`, as SBIRTOOLS_REDIS_URL or `--redis`. */
  url: string;
  /** Prefix of every key, so several deployments can share one Redis. @default 'sbirtools:' */
  prefix?: string;
}

// Each script is one atomic step on the Redis server: no other replica sees half of it.
const APPEND = `redis.call('RPUSH', KEYS[2], ARGV[1])
local t = redis.call('PTTL', KEYS[1])
if t > 0 then redis.call('PEXPIRE', KEYS[2], t) end
if ARGV[2] ~= '' then redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3]) end
return 1`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;
const TOUCH = `if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  return 1
end
return 0`;

/**
 * The shared store on a real Redis (through the `redis` client): what lets several replicas serve
 * one session without affinity. Connects before it resolves.
 * @throws {SbirtoolsError} `STORE_UNAVAILABLE` when Redis cannot be reached (the message names the URL).
 * @example const store = await createRedisStore({ url: 'redis://127.0.0.1:6379' });
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<SharedStore> {
  const { createClient } = await importOptional('redis', 'A Redis store (serve --redis, SBIRTOOLS_REDIS_URL)', () => import('redis'));
  const p = options.prefix ?? 'sbirtools:';
  let connected = false;
  // Before the first connection a failure is final (start-up reports it); after it, reconnect with backoff.
  const reconnectStrategy = (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, 2000) : cause);
  // no offline queue: while Redis is down, commands fail at once (500s, readyz false) instead of hanging
  const client = createClient({ url: options.url, disableOfflineQueue: true, socket: { connectTimeout: 5000, reconnectStrategy } });
  // Without a listener, a lost connection would be an uncaught 'error' event; the client reconnects by itself.
  client.on('error', () => undefined);
  try {
    await client.connect();
    connected = true;
  } catch (err) {
    throw new SbirtoolsError('STORE_UNAVAILABLE', `Cannot connect to Redis at ${redact(options.url)}: ${(err as Error).message}. Start redis-server or fix --redis / SBIRTOOLS_REDIS_URL.`);
  }
  const cmd = <T>(args: string[]) => client.sendCommand<T>(args);
  const eval_ = <T>(script: string, keys: string[], args: string[]) => cmd<T>(['EVAL', script, String(keys.length), ...keys, ...args]);
  const marker = (owner: string, id: string) => `${p}s:${owner}:${id}`;
  const list = (owner: string, id: string) => `${p}c:${owner}:${id}`;
  const index = (owner: string) => `${p}o:${owner}`;
  const tableList = (owner: string) => `${p}t:${owner}`;
  const tableData = (owner: string, sha: string) => `${p}tb:${owner}:${sha}`;
  let closed = false;
  return {
    kind: 'redis',
    async createSession(owner, id, ttlMs) {
      const set = await cmd<string | null>(['SET', marker(owner, id), '1', 'NX', 'PX', String(ttlMs)]);
      if (set === null) return false;
      await cmd(['DEL', list(owner, id)]);
      await cmd(['SADD', index(owner), id]);
      return true;
    },
    async touchSession(owner, id, ttlMs) {
      return (await eval_<number>(TOUCH, [marker(owner, id), list(owner, id)], [String(ttlMs)])) === 1;
    },
    async listSessions(owner) {
      const ids = await cmd<string[]>(['SMEMBERS', index(owner)]);
      const alive: string[] = [];
      for (const id of ids) {
        if ((await cmd<number>(['EXISTS', marker(owner, id)])) === 1) alive.push(id);
        else await cmd(['SREM', index(owner), id]);
      }
      return alive.sort();
    },
    async deleteSession(owner, id) {
      const n = await cmd<number>(['DEL', marker(owner, id), list(owner, id)]);
      await cmd(['SREM', index(owner), id]);
      return n > 0;
    },
    async cells(owner, id) {
      const raw = await cmd<string[]>(['LRANGE', list(owner, id), '0', '-1']);
      return raw.map((line) => JSON.parse(line) as Cell);
    },
    async clearCells(owner, id) {
      await cmd(['DEL', list(owner, id)]);
    },
    async appendCell(owner, id, cell, answer) {
      const keys = [marker(owner, id), list(owner, id), answer ? `${p}a:${answer.key}` : `${p}a:-`];
      await eval_(APPEND, keys, [JSON.stringify(cell), answer ? JSON.stringify(answer.value) : '', answer ? String(answer.ttlMs) : '0']);
    },
    async putTable(owner, info, bytes, ttlMs) {
      // bytes first: a replica that sees the index entry always finds its bytes
      await cmd(['SET', tableData(owner, info.sha), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), 'PX', String(ttlMs)]);
      await cmd(['HSET', tableList(owner), info.name, JSON.stringify(info)]);
      await cmd(['PEXPIRE', tableList(owner), String(ttlMs)]);
    },
    async tableIndex(owner, ttlMs) {
      const raw = await cmd<string[] | Record<string, string>>(['HGETALL', tableList(owner)]);
      const values = Array.isArray(raw) ? raw.filter((_, i) => i % 2 === 1) : Object.values(raw ?? {});
      const infos = values.map((v) => JSON.parse(v) as StoredTableInfo).sort((a, b) => (a.name < b.name ? -1 : 1));
      if (infos.length) {
        await cmd(['PEXPIRE', tableList(owner), String(ttlMs)]);
        for (const t of infos) await cmd(['PEXPIRE', tableData(owner, t.sha), String(ttlMs)]);
      }
      return infos;
    },
    async tableBytes(owner, sha) {
      const raw = await cmd<string | null>(['GET', tableData(owner, sha)]);
      return raw === null ? undefined : new Uint8Array(Buffer.from(raw, 'base64'));
    },
    async putAnswer(key, value, ttlMs) {
      await cmd(['SET', `${p}a:${key}`, JSON.stringify(value), 'PX', String(ttlMs)]);
    },
    async getAnswer(key) {
      const raw = await cmd<string | null>(['GET', `${p}a:${key}`]);
      return raw === null ? undefined : (JSON.parse(raw) as StoredAnswer);
    },
    async acquireLease(name, ttlMs) {
      const token = randomUUID();
      const set = await cmd<string | null>(['SET', `${p}l:${name}`, token, 'NX', 'PX', String(ttlMs)]);
      return set === null ? undefined : token;
    },
    async renewLease(name, token, ttlMs) {
      return (await eval_<number>(RENEW, [`${p}l:${name}`], [token, String(ttlMs)])) === 1;
    },
    async releaseLease(name, token) {
      await eval_(RELEASE, [`${p}l:${name}`], [token]);
    },
    async hit(name, windowMs) {
      const [count, ttl] = await eval_<[number, number]>(HIT, [`${p}w:${name}`], [String(windowMs)]);
      return { count, resetMs: Math.max(0, ttl) };
    },
    async ping() {
      try {
        return (await cmd<string>(['PING'])) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close().catch(() => client.destroy());
    },
  };
}

/** The URL without a password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
