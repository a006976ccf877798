import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { FUNCTION_NODES, LOOP_NODES, type AnyNode } from './patternNames.js';
import { isBareObjectsCall, rowChainFrom } from './rowChains.js';
import { bodyReads } from './rowReads.js';
import { listLoopEdits } from './tableLoops.js';

/** One top-level `const rows = <expr>.objects()` whose every use reads fields of its rows only. */
export interface RowArray {
  name: string;
  /** The edits for the declaration and every use (applied only when `name` runs as a true local). */
  edits: LocalEdit[];
  /**
   * Names that must run as true locals too for the edits to apply: a column array read in place only
   * by a loop the columns answer (sharedArrays.ts) needs that loop's rewrite (keyedLoops.ts's names).
   */
  needs?: string[];
}

/** A loop over the array: the name it iterates, and the fields its body reads. */
interface Use {
  id: AnyNode;
  reads: string[];
}

/**
 * The row arrays bound to a name whose loops the guest may run over the kept column values instead
 * of the rows (see docs/architecture.md, "Row arrays bound to a name"). A candidate is a top-level
 * `const|let NAME = <expr>.objects()` (one declarator, no arguments, no `?.`) whose every other
 * mention of NAME, none inside a function, arrow or class and each after the declaration, is
 *   - the iterable of `for (const|let r of NAME)`, not inside another loop, whose body only reads
 *     fields of `r` (rowReads.ts): rewritten (tableLoops.ts); or
 *   - `NAME.length` read for its value (`__sbirtools_rowLoop.len(NAME).length`); or
 *   - the start of a chain of array methods whose callbacks only read fields (rowChains.ts) that does
 *     not end at a filter (whose rows the code could change): its last argument gets a cue,
 *     `__sbirtools_rowLoop.chain(LAST, reads, ops)`, which answers LAST and tells the array's own
 *     method which chain calls it (session 19).
 * Any other mention (a write, a call argument, a spread, `NAME[i]`, the program's value...) keeps
 * every use of NAME as written: the uses read the values the rows were built from, so no code may
 * change a row or the array. No code of the run then ever sees a row of the array: objects() answers
 * an empty array (`open(reads, ['defer'])`) that the write-back at the end of the run (localize.ts,
 * `__sbirtools_rowLoop.release`) fills with the rows it would have held, built from the values of the
 * call; `NAME.length`, read through `__sbirtools_rowLoop.len(NAME)`, is the count of those rows, all
 * it can see of the array (session 19: setting the empty array's length cost a 219,590-slot store);
 * with chains (`['chains', ...methods]`) the array also has, until the
 * write-back, its own methods of those names, which run the cued chain over the kept values
 * (prelude/data/rowChain.ts) as objects()'s own chains do. Either way the
 * write-back ends the binding: a later run sees a plain array, which it may have changed. The rewrite
 * is only safe when NAME runs as a true local (localize.ts: nothing but this run's top-level code can
 * reach it): the caller applies the edits of the names the local plan took. A `<expr>.tolist()` list
 * is deferred the same way when every use is a destructuring loop (listUsesOf). `up` maps each node to its parent and the key it sits under; `mentions` holds every
 * identifier of the program that may be a variable.
 */
export function rowArrays(
  program: AnyNode,
  up: Map<AnyNode, [AnyNode, string]>,
  mentions: AnyNode[],
  source: string,
): RowArray[] {
  const out: RowArray[] = [];
  for (const s of program.body as AnyNode[]) {
    if (s.type !== 'VariableDeclaration' || s.kind === 'var' || s.declarations.length !== 1) continue;
    const d = s.declarations[0];
    if (d.id.type !== 'Identifier' || !d.init || d.id.name === 'result') continue;
    if (isBareObjectsCall(d.init, LIST_METHODS)) {
      const loops = listUsesOf(d.id, s, up, mentions, source);
      if (loops)
        out.push({
          name: d.id.name,
          edits: [insert(d.init.end - 1, `${ROW_LOOP_GLOBAL}.open([], ["defer"])`), ...loops],
        });
      continue;
    }
    if (!isBareObjectsCall(d.init)) continue;
    const found = usesOf(d.id, s, up, mentions);
    if (!found) continue;
    const reads = new Set<string>();
    for (const u of found.uses) for (const f of u.reads) reads.add(f);
    for (const c of found.chains) for (const f of c.reads) reads.add(f);
    // only loops: no code of the run sees the rows, which are built when the name is written back;
    // loops and `NAME.length`: the same, the empty array's length set to the rows' count; chains too:
    // the same, and the array answers each chain's first method over the kept values (`['chains',
    // ...methods]`: prelude/data/rowLoop.ts `chainMethod`), the chain saying which it is by a cue
    // around its last argument (the argument's value and count unchanged)
    const methods = [...new Set(found.chains.map((c) => c.method))];
    const how = methods.length ? ['chains', ...methods] : ['defer'];
    const edits: LocalEdit[] = [
      insert(d.init.end - 1, `${ROW_LOOP_GLOBAL}.open(${JSON.stringify([...reads])}, ${JSON.stringify(how)})`),
    ];
    for (const c of found.chains) edits.push(...c.edits);
    edits.push(...found.lengths);
    out.push({ name: d.id.name, edits });
  }
  return out;
}

/** A list of rows as arrays (`t.tolist()`): bound when only destructuring loops read it. */
const LIST_METHODS = ['tolist', 'to_list'];

/**
 * The edits for the uses of a name `t.tolist()` declares when every one is `for (const|let [a, b] of
 * NAME)` (plain names or holes: the row array itself is never held), not inside a function or another
 * loop, after the declaration; else undefined. Each loop then reads rows built as it reaches them
 * (tableLoops.ts listLoopEdits), and the list is filled when the name is first read after the run.
 */
function listUsesOf(
  id: AnyNode,
  decl: AnyNode,
  up: Map<AnyNode, [AnyNode, string]>,
  mentions: AnyNode[],
  source: string,
): LocalEdit[] | undefined {
  const edits: LocalEdit[] = [];
  for (const m of mentions) {
    if (m === id || m.name !== id.name) continue;
    if (m.start < decl.end) return undefined;
    const [loop, key] = up.get(m) ?? [null, ''];
    if (!loop || loop.type !== 'ForOfStatement' || key !== 'right' || loop.await) return undefined;
    for (let at = up.get(loop); at; at = up.get(at[0]))
      if (FUNCTION_NODES.has(at[0].type) || LOOP_NODES.has(at[0].type)) return undefined;
    const left = loop.left;
    if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
    const pattern = left.declarations[0].id;
    if (
      pattern.type !== 'ArrayPattern' ||
      !pattern.elements.every((e: AnyNode | null) => e === null || e.type === 'Identifier')
    )
      return undefined;
    const wrap = listLoopEdits(loop, source);
    if (!wrap) return undefined;
    edits.push(...wrap);
  }
  return edits.length ? edits : undefined;
}

const insert = (at: number, text: string): LocalEdit => ({
  start: at,
  end: at,
  text: `${INSERTED_OPEN}${text}${INSERTED_CLOSE}`,
});

/** A chain of array methods on the name (rowChains.ts): its first method, the fields it reads, the cue's edits. */
interface ChainUse {
  method: string;
  reads: string[];
  edits: LocalEdit[];
}

/**
 * The loops over the name `id` declares, its chains, and the edits of its `NAME.length` reads, when each use
 * is a loop or chain that only reads fields; else undefined.
 */
function usesOf(
  id: AnyNode,
  decl: AnyNode,
  up: Map<AnyNode, [AnyNode, string]>,
  mentions: AnyNode[],
): { uses: Use[]; chains: ChainUse[]; lengths: LocalEdit[] } | undefined {
  const uses: Use[] = [];
  const chains: ChainUse[] = [];
  const lengths: LocalEdit[] = [];
  for (const m of mentions) {
    if (m === id || m.name !== id.name) continue;
    if (m.start < decl.end) return undefined;
    // inside a function, arrow or class: a closure may run at another time
    for (let at = up.get(m); at; at = up.get(at[0])) if (FUNCTION_NODES.has(at[0].type)) return undefined;
    const [parent, key] = up.get(m) ?? [null, ''];
    if (!parent) return undefined;
    if (parent.type === 'ForOfStatement' && key === 'right') {
      // a loop inside another loop stays as written (rowLoops.ts wraps top-level loops only)
      for (let at = up.get(parent); at; at = up.get(at[0])) if (LOOP_NODES.has(at[0].type)) return undefined;
      const reads = loopReads(parent);
      if (!reads) return undefined;
      uses.push({ id: m, reads });
      continue;
    }
    // a chain's callbacks only read fields, so no row changes; one that ends at a filter hands rows
    // out, which the code may then change
    const chain = rowChainFrom(m, up);
    if (!chain || chain.ops[chain.ops.length - 1] === 'filter') return undefined;
    // `NAME.length` read for its value sees only the array's length, never a row
    // (`__sbirtools_rowLoop.len(NAME).length`: the count of the rows to come, while they are not in it)
    if (chain.ops.length === 1 && chain.ops[0] === 'length') {
      lengths.push(insert(m.start, `${ROW_LOOP_GLOBAL}.len(`), insert(m.end, ')'));
      continue;
    }
    // the chain's first call: `NAME.method(..., LAST)` -> `NAME.method(..., chain(LAST, reads, ops))`
    const member = parent;
    const call = up.get(member)![0];
    const last = (call.arguments as AnyNode[])[call.arguments.length - 1]!;
    // `(a, b)`: acorn's range leaves out the parentheses, and the cue would split it into two arguments
    if (last.type === 'SequenceExpression') return undefined;
    const method = member.property.name as string;
    const cue = `${JSON.stringify(chain.reads)}, ${JSON.stringify(chain.ops)}`;
    chains.push({
      method,
      reads: chain.reads,
      edits: [insert(last.start, `${ROW_LOOP_GLOBAL}.chain(`), insert(last.end, `, ${cue})`)],
    });
  }
  return uses.length || chains.length || lengths.length ? { uses, chains, lengths } : undefined;
}

/** The fields `for (const|let r of NAME) body` reads of its row, or undefined (see rowLoopReads in rowLoops.ts). */
function loopReads(loop: AnyNode): string[] | undefined {
  if (loop.await) return undefined;
  const left = loop.left;
  if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const r = left.declarations[0].id;
  return r.type === 'Identifier' ? bodyReads(loop.body, r.name) : undefined;
}
