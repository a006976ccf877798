import { createHash } from 'node:crypto';
import { fail } from './respond.js';
import type { AnswerSlot } from './sessions/serverSessions.js';
import { withLease } from './sessions/withLease.js';
import type { SharedStore, StoredAnswer } from './store/sharedStore.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/** How long a stored answer is replayed for a retry. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * Run a request at most once per `Idempotency-Key` (per API key, across replicas): the first
 * request runs and its answer is stored with its cell, atomically; a retry (same or other replica,
 * during or after the first) gets that answer with `idempotent-replayed: true`. A retry whose body
 * differs is refused (422): the key names one request.
 */
export async function idempotent(
  store: SharedStore,
  owner: string,
  header: string | null,
  body: string,
  waitMs: number,
  exec: (slot?: AnswerSlot) => Promise<Response>,
): Promise<Response> {
  if (header === null) return exec();
  if (!KEY.test(header))
    return fail(
      400,
      'VALIDATION_ERROR',
      'The Idempotency-Key header must be 1-255 visible ASCII characters (a UUID is typical).',
    );
  const key = `${owner}:${header}`;
  const fingerprint = createHash('sha256').update(body).digest('hex');
  const stored = async (): Promise<Response | undefined> => {
    const answer = await store.getAnswer(key);
    return answer && replayAnswer(answer, fingerprint);
  };
  return (
    (await stored()) ??
    withLease(
      store,
      `idem:${key}`,
      { waitMs, onWait: stored },
      async () => (await stored()) ?? exec({ key, fingerprint, ttlMs: IDEMPOTENCY_TTL_MS }),
    )
  );
}

function replayAnswer(answer: StoredAnswer, fingerprint: string): Response {
  if (answer.fingerprint !== fingerprint) {
    return fail(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used for a different request body.',
      {},
      'Use a new Idempotency-Key for new code; reuse a key only to retry the very same request.',
    );
  }
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'idempotent-replayed': 'true',
      'sbirtools-code-ran': String(answer.ran),
    },
  });
}
