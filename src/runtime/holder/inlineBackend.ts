import { SessionHost } from './sessionHost.js';
import { foreignRuntime, hasNoNodeSnapshotFlag } from '../engines/isolated-vm/loadIsolatedVm.js';
import type { Backend } from './backend.js';
import { SbirtoolsValidationError } from '../../core/errors.js';
import { outputCoalescer } from './outputCoalescer.js';

/**
 * Sessions in this process: the fastest path, with no process boundary. A fatal V8 error or a
 * builtin that ignores termination takes the host down with it; see docs/threat-model.md.
 * isolated-vm needs `--no-node-snapshot` on this Node; the QuickJS engine (WASM) needs nothing.
 */
export class InlineBackend implements Backend {
  private readonly host = new SessionHost();

  /** @throws {SbirtoolsValidationError} when isolated-vm may run here and Node was started without `--no-node-snapshot`. */
  async open(id: string, spec: Parameters<Backend['open']>[1]) {
    if (spec.engine !== 'quickjs' && !foreignRuntime() && !hasNoNodeSnapshotFlag()) {
      throw new SbirtoolsValidationError(
        "`isolation: 'inline'` needs Node started with --no-node-snapshot (isolated-vm crashes without it on Node >= 20). " +
          "Start node with `node --no-node-snapshot` or NODE_OPTIONS=--no-node-snapshot, use the default `isolation: 'process'`, " +
          "or use `engine: 'quickjs'` (the WASM engine, which needs no flag).",
      );
    }
    return this.host.open(id, spec);
  }

  async run(
    id: string,
    req: Parameters<Backend['run']>[1],
    signal?: AbortSignal,
    onOutput?: Parameters<Backend['run']>[3],
  ) {
    const onAbort = () => this.host.abort(id);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // the same few, joined messages a holder sends
      const out = onOutput && outputCoalescer(onOutput);
      try {
        return await this.host.run(id, req, out?.write);
      } finally {
        out?.flush();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(id: string) {
    this.host.close(id);
  }

  async liveIsolates() {
    return this.host.liveIsolates;
  }

  async shutdown() {
    this.host.closeAll();
  }
}
