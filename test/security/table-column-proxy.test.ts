// Hazard: column access (t['col'], t.col) works through a Proxy placed as the prototype of Arquero's
// Table.prototype. Guest code can reach that Proxy (Object.getPrototypeOf three times) and attack it:
// redefine its traps' target, make it throw or loop on every unknown property, or use it to pollute
// the realm. It lives in the guest's own realm, so none of this reaches the host; the result shape
// stays valid (the serializer uses captured builtins), a looping trap ends as TIMEOUT, and the
// damage stays in the session.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { expectHealthy, timed } from './helpers.js';

const REACH = 'const P = Object.getPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf(award_data))); ';

describe('the table column-access Proxy', () => {
  it('is in the guest realm: nothing of the host is reachable through it', async () => {
    await using box = await createSandbox();
    const r = await box.run(
      `${REACH} const names = Object.getOwnPropertyNames(P); [typeof P, names.includes('hasOwnProperty'), typeof P.isPrototypeOf, Object.getPrototypeOf(P) === null]`,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(['object', true, 'function', true]);
    const host = await box.run(`${REACH} [typeof P.process, typeof P.require, typeof P.global]`);
    expect(host.value).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('cannot be detached or re-parented (Object.prototype is immutable), and the result shape holds', async () => {
    await using box = await createSandbox();
    const r = await box.run(
      `${REACH} let err = ''; try { Object.setPrototypeOf(P, {}); } catch (e) { err = e.name; } [err, award_data.Agency.nunique() > 0]`,
    );
    expect(r.value).toEqual(['TypeError', true]);
  });

  it('a property defined on it pollutes only this session, and results still serialize', async () => {
    await using box = await createSandbox();
    const r = await box.run(
      `${REACH} Object.defineProperty(P, 'Agency', { get() { return 'pwned'; }, configurable: true }); [({}).Agency, typeof award_data.Agency, award_data.head(2).numRows()]`,
    );
    expect(r.error).toBeUndefined();
    // names Object.prototype has are read from it, so the guest's own pollution shadows the column
    expect(r.value).toEqual(['pwned', 'string', 2]);
    await using other = await createSandbox();
    expect((await other.run('[({}).Agency === undefined, award_data.Agency.nunique() > 0]')).value).toEqual([
      true,
      true,
    ]);
  });

  it('a column whose name is a mask token or "then" is harmless: awaiting a table does not hang', async () => {
    await using box = await createSandbox({ timeoutMs: 3000 });
    const { r } = await timed(box, 'const t = aq.table({ then: [1, 2] }); const u = await t; u.numRows()');
    expect(r.value).toBe(2);
    const forged = await box.run("award_data['[boolean mask #999999 of 1 rows]']");
    expect(forged.ok).toBe(true);
    expect(forged.table).toBeUndefined();
    await expectHealthy(box);
  });
});
