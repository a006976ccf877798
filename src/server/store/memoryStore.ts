import { randomUUID } from 'node:crypto';
import type { Cell, SharedStore, StoredAnswer, StoredTableInfo } from './sharedStore.js';

interface Timed<T> {
  value: T;
  expires: number;
}

/**
 * The shared store of a single replica: plain maps with TTLs. Sessions then live as long as this
 * process; use createRedisStore() to run several replicas.
 * @example const store = createMemoryStore();
 */
export function createMemoryStore(): SharedStore {
  const sessions = new Map<string, Timed<Cell[]>>();
  const answers = new Map<string, Timed<StoredAnswer>>();
  const leases = new Map<string, Timed<string>>();
  const windows = new Map<string, Timed<number>>();
  const spends = new Map<string, number[]>();
  const slots = new Map<string, Map<string, number>>();
  const tables = new Map<string, Timed<Map<string, { info: StoredTableInfo; bytes: Uint8Array }>>>();
  const sk = (owner: string, id: string) => `${owner}\u0000${id}`;
  const live = <T>(map: Map<string, Timed<T>>, key: string): Timed<T> | undefined => {
    const entry = map.get(key);
    if (entry && entry.expires <= Date.now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    kind: 'memory',
    async createSession(owner, id, ttlMs) {
      if (live(sessions, sk(owner, id))) return false;
      sessions.set(sk(owner, id), { value: [], expires: Date.now() + ttlMs });
      return true;
    },
    async touchSession(owner, id, ttlMs) {
      const entry = live(sessions, sk(owner, id));
      if (entry) entry.expires = Date.now() + ttlMs;
      return !!entry;
    },
    async listSessions(owner) {
      const prefix = `${owner}\u0000`;
      return [...sessions.keys()]
        .filter((k) => k.startsWith(prefix) && live(sessions, k))
        .map((k) => k.slice(prefix.length));
    },
    async deleteSession(owner, id) {
      return !!live(sessions, sk(owner, id)) && sessions.delete(sk(owner, id));
    },
    async cells(owner, id) {
      return [...(live(sessions, sk(owner, id))?.value ?? [])];
    },
    async clearCells(owner, id) {
      const entry = live(sessions, sk(owner, id));
      if (entry) entry.value = [];
    },
    async appendCell(owner, id, cell, answer) {
      live(sessions, sk(owner, id))?.value.push(cell);
      if (answer) answers.set(answer.key, { value: answer.value, expires: Date.now() + answer.ttlMs });
    },
    async putTable(owner, info, bytes, ttlMs) {
      const entry = live(tables, owner) ?? { value: new Map(), expires: 0 };
      entry.value.set(info.name, { info, bytes });
      entry.expires = Date.now() + ttlMs;
      tables.set(owner, entry);
    },
    async tableIndex(owner, ttlMs) {
      const entry = live(tables, owner);
      if (!entry) return [];
      entry.expires = Date.now() + ttlMs;
      return [...entry.value.values()].map((t) => t.info).sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    async tableBytes(owner, sha) {
      for (const t of live(tables, owner)?.value.values() ?? []) if (t.info.sha === sha) return t.bytes;
      return undefined;
    },
    async putAnswer(key, value, ttlMs) {
      answers.set(key, { value, expires: Date.now() + ttlMs });
    },
    async getAnswer(key) {
      return live(answers, key)?.value;
    },
    async acquireLease(name, ttlMs) {
      if (live(leases, name)) return undefined;
      const token = randomUUID();
      leases.set(name, { value: token, expires: Date.now() + ttlMs });
      return token;
    },
    async renewLease(name, token, ttlMs) {
      const entry = live(leases, name);
      if (!entry || entry.value !== token) return false;
      entry.expires = Date.now() + ttlMs;
      return true;
    },
    async releaseLease(name, token) {
      if (live(leases, name)?.value === token) leases.delete(name);
    },
    async hit(name, windowMs) {
      const entry = live(windows, name) ?? { value: 0, expires: Date.now() + windowMs };
      entry.value++;
      windows.set(name, entry);
      return { count: entry.value, resetMs: entry.expires - Date.now() };
    },
    // no await between the check and the change below: one burst on one event loop cannot interleave
    async spend(name, limit, windowMs, cost = 1) {
      const now = Date.now();
      const log = (spends.get(name) ?? []).filter((t) => t > now - windowMs);
      if (log.length + cost > limit) {
        spends.set(name, log);
        return { ok: false, used: log.length, retryMs: log.length ? log[0]! + windowMs - now : windowMs };
      }
      for (let i = 0; i < cost; i++) log.push(now);
      spends.set(name, log);
      return { ok: true, used: log.length, retryMs: 0 };
    },
    async acquireSlot(name, limit, ttlMs) {
      const now = Date.now();
      const held = slots.get(name) ?? new Map<string, number>();
      for (const [token, expires] of held) if (expires <= now) held.delete(token);
      if (held.size >= limit) return undefined;
      const token = randomUUID();
      held.set(token, now + ttlMs);
      slots.set(name, held);
      return token;
    },
    async renewSlot(name, token, ttlMs) {
      const held = slots.get(name);
      if (!held?.has(token) || held.get(token)! <= Date.now()) return false;
      held.set(token, Date.now() + ttlMs);
      return true;
    },
    async releaseSlot(name, token) {
      const held = slots.get(name);
      held?.delete(token);
      if (held?.size === 0) slots.delete(name);
    },
    async ping() {
      return true;
    },
    async close() {
      sessions.clear();
      answers.clear();
      leases.clear();
      windows.clear();
      spends.clear();
      slots.clear();
      tables.clear();
    },
  };
}
