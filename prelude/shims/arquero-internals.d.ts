// Arquero 8.0.3 internals the closure fallback reuses (no published types for deep imports).
declare module 'arquero/src/verbs/derive.js' {
  export function _derive(
    table: unknown,
    spec: { names: string[]; exprs: Array<(row: number, data: unknown, op: unknown) => unknown>; ops?: unknown[] },
    options?: Record<string, unknown>,
  ): import('arquero').ColumnTable;
}
