import { randomUUID } from 'node:crypto';
import { SbirtoolsError } from '../../core/errors.js';
import { StoreUnavailableError } from './storeUnavailable.js';
import { importOptional } from '../../core/optionalPeer.js';
import type { Cell, SharedStore, StoredAnswer, StoredTableInfo } from './sharedStore.js';

/** Options of createRedisStore(). */
export interface RedisStoreOptions {
  /** `redis://host:port[/db]`, as SBIRTOOLS_REDIS_URL or `--redis`. */
  url: string;
  /** Prefix of every key, so several deployments can share one Redis. @default 'sbirtools:' */
  prefix?: string;
  /** Longest wait for any one Redis command: a hung Redis is a failure (STORE_UNAVAILABLE), not a wait. @default 2000 */
  commandTimeoutMs?: number;
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
// A table whose bytes are gone leaves the index, only if the entry is still the one read (a table
// added again under the name meanwhile is kept).
const DROP_TABLE = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`;
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;
// A sliding log of spends (score = time): of a burst, exactly the first `limit` are admitted.
const SPEND = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if used + cost > limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local retry = window
  if oldest[2] then retry = tonumber(oldest[2]) + window - now end
  return {0, used, retry}
end
for i = 1, cost do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
redis.call('PEXPIRE', KEYS[1], window)
return {1, used + cost, 0}`;
// Slots are members scored by their expiry: a replica that dies mid-run frees its slots after the TTL.
const SLOT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const RENEW_SLOT = `if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;
const TOUCH = `if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  return 1
end
return 0`;

/**
 * The shared store on a real Redis (through the `redis` client): what lets several replicas serve
 * one session without affinity. Connects before it resolves. Every command has a timeout; a
 * command that times out, meets a lost connection, or that Redis refuses (out of memory, wrong
 * password) throws StoreUnavailableError. `rediss://` URLs connect over TLS (trust a private CA
 * with NODE_EXTRA_CA_CERTS).
 * @throws {SbirtoolsError} `STORE_UNAVAILABLE` when Redis cannot be reached (the message names the URL).
 * @example const store = await createRedisStore({ url: 'redis://127.0.0.1:6379' });
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<SharedStore> {
  const { createClient } = await importOptional(
    'redis',
    'A Redis store (serve --redis, SBIRTOOLS_REDIS_URL)',
    () => import('redis'),
  );
  const p = options.prefix ?? 'sbirtools:';
  let connected = false;
  // Before the first connection a failure is final (start-up reports it); after it, reconnect with backoff.
  const reconnectStrategy = (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, 2000) : cause);
  // no offline queue: while Redis is down, commands fail at once (500s, readyz false) instead of hanging
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 5000, reconnectStrategy },
  });
  // Without a listener, a lost connection would be an uncaught 'error' event; the client reconnects by itself.
  client.on('error', () => undefined);
  try {
    await client.connect();
    connected = true;
  } catch (err) {
    throw new SbirtoolsError(
      'STORE_UNAVAILABLE',
      `Cannot connect to Redis at ${redact(options.url)}: ${(err as Error).message}. Start redis-server or fix --redis / SBIRTOOLS_REDIS_URL.`,
    );
  }
  const timeout = options.commandTimeoutMs ?? 2000;
  const where = redact(options.url);
  // the client's own `timeout` covers only a command's wait to be written, not the wait for its
  // reply (a paused Redis accepts the bytes and never answers): the deadline is kept here
  const cmd = async <T>(args: string[]): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreUnavailableError(`Redis at ${where} did not answer within ${timeout} ms.`)),
        timeout,
      );
    });
    try {
      return await Promise.race([client.sendCommand<T>(args, { timeout }), deadline]);
    } catch (err) {
      throw unavailable(err, where, timeout);
    } finally {
      clearTimeout(timer);
    }
  };
  const eval_ = <T>(script: string, keys: string[], args: string[]) =>
    cmd<T>(['EVAL', script, String(keys.length), ...keys, ...args]);
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
      await eval_(APPEND, keys, [
        JSON.stringify(cell),
        answer ? JSON.stringify(answer.value) : '',
        answer ? String(answer.ttlMs) : '0',
      ]);
    },
    async putTable(owner, info, bytes, ttlMs) {
      // bytes first: a replica that sees the index entry always finds its bytes
      await cmd([
        'SET',
        tableData(owner, info.sha),
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
        'PX',
        String(ttlMs),
      ]);
      await cmd(['HSET', tableList(owner), info.name, JSON.stringify(info)]);
      await cmd(['PEXPIRE', tableList(owner), String(ttlMs)]);
    },
    async tableIndex(owner, ttlMs) {
      const raw = await cmd<string[] | Record<string, string>>(['HGETALL', tableList(owner)]);
      const values = Array.isArray(raw) ? raw.filter((_, i) => i % 2 === 1) : Object.values(raw ?? {});
      const kept: StoredTableInfo[] = [];
      for (const v of values) {
        const t = JSON.parse(v) as StoredTableInfo;
        // bytes gone (their TTL ran out just before the index's, set two round trips later, or Redis
        // evicted them): the table is gone, not listed to fail every run with "add it again"
        if ((await cmd<number>(['PEXPIRE', tableData(owner, t.sha), String(ttlMs)])) === 1) kept.push(t);
        else await eval_(DROP_TABLE, [tableList(owner)], [t.name, v]);
      }
      if (kept.length) await cmd(['PEXPIRE', tableList(owner), String(ttlMs)]);
      return kept.sort((a, b) => (a.name < b.name ? -1 : 1));
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
    async spend(name, limit, windowMs, cost = 1) {
      const [ok, used, retry] = await eval_<[number, number, number]>(
        SPEND,
        [`${p}b:${name}`],
        [String(limit), String(windowMs), String(cost), randomUUID()],
      );
      return { ok: ok === 1, used, retryMs: Math.max(0, retry) };
    },
    async acquireSlot(name, limit, ttlMs) {
      const token = randomUUID();
      return (await eval_<number>(SLOT, [`${p}k:${name}`], [String(limit), String(ttlMs), token])) === 1
        ? token
        : undefined;
    },
    async renewSlot(name, token, ttlMs) {
      return (await eval_<number>(RENEW_SLOT, [`${p}k:${name}`], [token, String(ttlMs)])) === 1;
    },
    async releaseSlot(name, token) {
      await cmd(['ZREM', `${p}k:${name}`, token]);
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

/**
 * A Redis failure as the service treats it: unavailable (503, retry) for timeouts, lost
 * connections and refused writes; any other error reply (a bug) stays as it is.
 */
function unavailable(err: unknown, where: string, timeoutMs: number): Error {
  if (err instanceof StoreUnavailableError) return err;
  const e = err as Error;
  const text = String(e?.message ?? e);
  if (/^OOM\b/.test(text))
    return new StoreUnavailableError(`Redis at ${where} is out of memory (maxmemory reached) and refused a write.`);
  if (/^(NOAUTH|WRONGPASS)\b/.test(text))
    return new StoreUnavailableError(`Redis at ${where} refused the password (${text.split(' ')[0]}).`);
  if (/^(LOADING|BUSY|MASTERDOWN|READONLY|MISCONF)\b/.test(text))
    return new StoreUnavailableError(`Redis at ${where} cannot serve now: ${text}`);
  if (e?.name === 'ErrorReply' || e?.constructor?.name === 'ErrorReply' || e?.constructor?.name === 'SimpleError')
    return e;
  if (e?.name === 'TimeoutError' || /timeout/i.test(text))
    return new StoreUnavailableError(`Redis at ${where} did not answer within ${timeoutMs} ms.`);
  return new StoreUnavailableError(`Redis at ${where} is unreachable: ${text}`);
}

/** The URL without a password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
