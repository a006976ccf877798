/**
 * The MCP requests this process is answering over HTTP, by owner and JSON-RPC id, so a
 * `notifications/cancelled` that arrives in another POST (stateless Streamable HTTP) finds the run
 * it cancels. Owner-scoped: a key can only cancel its own requests.
 */
export class InflightCalls {
  private readonly calls = new Map<string, AbortController>();

  /** Track `ids` of one POST; the returned function forgets them. */
  track(owner: string, ids: Array<string | number>, controller: AbortController): () => void {
    const keys = ids.map((id) => `${owner}\u0000${typeof id}:${String(id)}`);
    for (const k of keys) this.calls.set(k, controller);
    return () => {
      for (const k of keys) if (this.calls.get(k) === controller) this.calls.delete(k);
    };
  }

  /** Abort the request `id` of `owner`; true when one was running here. */
  cancel(owner: string, id: string | number, reason?: string): boolean {
    const c = this.calls.get(`${owner}\u0000${typeof id}:${String(id)}`);
    if (!c) return false;
    c.abort(new Error(reason ?? 'cancelled by the client'));
    return true;
  }
}
