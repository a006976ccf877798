// The prepared code's function form made by the host's code check (prepare/runForm.ts) and run by
// the isolate without a parse of its own (prelude/runtime/keptRuns.ts): the form the check sends is
// the one the prelude would make of the same text; the isolate runs the form it is sent (a form that
// says something else answers that, which a form made in the isolate never would); the holder sends
// it with each run. That kept runs answer as the eval is test/unit/runtime/keptRunsDifferential.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { withRunForm } from '../../../src/runtime/prepare/runForm.js';
import { checkAndPrepare } from '../../../src/runtime/prepare/checkAndPrepare.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { EVAL_ONLY, functionForm } from '../../../prelude/runtime/functionForm.js';
import { IsolatedVmSession } from '../../../src/runtime/engines/isolated-vm/isolatedVmSession.js';
import { loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import type { GuestRunRequest } from '../../../src/runtime/engines/engineSession.js';
import type { SessionSpec } from '../../../src/runtime/holder/protocol.js';
import { PRESETS } from '../../../schema/limits.js';

const PROGRAMS = [
  '1 + 1',
  'let s = 0;\nfor (const v of [1, 2, 3]) s += v;\ns',
  'const a = [3, 1, 2].sort((x, y) => x - y);\nconst result = a[0];',
  'var x = 1, y;\nclass K { v() { return x } }\nnew K().v()',
  'let t = 0;\nfor (let i = 0; i < 3; i++) t += i;',
];

const run = (code: string, form?: GuestRunRequest['form']): GuestRunRequest => ({
  code,
  async: false,
  lineOffset: 0,
  resultName: false,
  timeoutMs: 5_000,
  ...(form ? { form } : {}),
});

const valueOf = (out: { outcomeJson?: string }) => (JSON.parse(out.outcomeJson!) as { value: unknown }).value;

describe('withRunForm', () => {
  it.each(PROGRAMS)('sends the form the prelude makes of the prepared text: %s', (code) => {
    const checked = checkAndPrepare(code, 'standard');
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    const prepared = checked.prepared;
    expect(prepared.form).toEqual(functionForm(prepared.code, prepared.resultName));
  });

  it('sends none for async code, for code that stays on eval, and for the eval-only marker', () => {
    expect(withRunForm(prepareCode('const v = await Promise.resolve(1);\nv')).form).toBeUndefined();
    expect(withRunForm(prepareCode('let t = 0;\nfor (let i = 0; i < 3; i++) t += i;')).form).toBeUndefined();
    expect(withRunForm(prepareCode(`1 // ${EVAL_ONLY}`)).form).toBeUndefined();
    expect(withRunForm(prepareCode('function f() { return 1 }\nf()')).form).toBeUndefined();
  });
});

describe('the isolate runs the form it is sent', () => {
  let session: IsolatedVmSession | undefined;
  afterEach(() => session?.dispose('closed'));

  it('answers what the sent form says; a run sent none makes its own', async () => {
    session = await IsolatedVmSession.open(loadEngine().ivm, { ...PRESETS.standard }, [], undefined);
    const told = await session.run(run('6 * 7', { text: '(function(){return 43})', declare: '' }));
    expect(valueOf(told)).toBe(43);
    // kept by its text: the same text runs the function made of the form it was first sent
    expect(valueOf(await session.run(run('6 * 7')))).toBe(43);
    expect(valueOf(await session.run(run('6 * 8')))).toBe(48);
    // the sent declarations are evaluated before each call, as the prelude's own
    const declared = await session.run(
      run('var sent;\n"sent" in globalThis', {
        text: '(function(){return "sent" in globalThis})',
        declare: 'var sent;',
      }),
    );
    expect(valueOf(declared)).toBe(true);
    // not a form (a wrong shape): the isolate makes its own
    const odd = { text: 7, declare: '' } as unknown as GuestRunRequest['form'];
    expect(valueOf(await session.run(run('2 + 2', odd)))).toBe(4);
  });
});

describe('the holder', () => {
  const hosts: SessionHost[] = [];
  afterEach(() => {
    for (const h of hosts.splice(0)) h.closeAll();
  });

  it('sends the check’s form with the run, and the run answers as written', async () => {
    const host = new SessionHost();
    hosts.push(host);
    const spec: SessionSpec = { limits: { ...PRESETS.standard }, tables: [], engine: 'isolated-vm' };
    await host.open('s', spec, false);
    const entry = (host as unknown as { sessions: Map<string, { session: IsolatedVmSession }> }).sessions.get('s')!;
    const sent: GuestRunRequest[] = [];
    const inner = entry.session.run.bind(entry.session);
    entry.session.run = (req) => {
      sent.push(req);
      return inner(req);
    };
    const code = 'let s = 0;\nfor (const v of [1, 2, 3]) s += v;\ns';
    const r = await host.run('s', { source: code, preset: 'standard', timeoutMs: 60_000 });
    expect(r.status, r.message).toBe('ok');
    expect(JSON.parse(r.outcomeJson!)).toMatchObject({ value: 6 });
    const checked = checkAndPrepare(code, 'standard');
    expect(checked.ok && checked.prepared.form).toBeTruthy();
    expect(sent[0]!.form).toEqual(checked.ok ? checked.prepared.form : undefined);
  });
});
