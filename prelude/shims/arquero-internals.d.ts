// Arquero 8.0.3 internals the closure fallback reuses (no published types for deep imports).
declare module 'arquero/src/verbs/derive.js' {
  export function _derive(
    table: unknown,
    spec: { names: string[]; exprs: Array<(row: number, data: unknown, op: unknown) => unknown>; ops?: unknown[] },
    options?: Record<string, unknown>,
  ): import('arquero').ColumnTable;
}
declare module 'arquero/src/verbs/reduce/util.js' {
  export function groupOutput(cols: { add(name: string, values: unknown[]): unknown[] }, groups: unknown): void;
}
declare module 'arquero/src/table/ColumnSet.js' {
  export function columnSet(table?: import('arquero').ColumnTable): {
    add(name: string, values: unknown[]): unknown[];
    'new'(proto: unknown): import('arquero').ColumnTable;
    derive(proto: unknown): import('arquero').ColumnTable;
  };
}
declare module 'arquero/src/util/quantile.js' {
  export function quantile(values: unknown[], p: number): unknown;
}
declare module 'arquero/src/util/ascending.js' {
  export function ascending(a: unknown, b: unknown): number;
}
declare module 'arquero/src/expression/codegen.js' {
  export function codegen(node: unknown, opt?: { index: string; op?: string }): string;
}
declare module 'arquero/src/expression/compile.js' {
  export const compile: { expr(code: string, params: unknown): (row: number, data: unknown, op?: unknown) => unknown };
}
declare module 'arquero/src/op/functions/index.js' {
  export const functions: Record<string, unknown>;
}

declare module 'arquero/src/op/op-api.js' {
  export class Op {
    name: string;
    fields: unknown[];
    params: unknown[];
  }
}

declare module 'arquero/src/op/aggregate-functions.js' {
  export const aggregateFunctions: Record<string, unknown>;
}

declare module 'arquero/src/op/window-functions.js' {
  export const windowFunctions: Record<string, unknown>;
}

declare module 'arquero/src/expression/parse.js' {
  export function parse(
    input: unknown,
    opt: { table: unknown; value: (name: string, node: { escape?: unknown }) => void; window: boolean },
  ): { names: string[]; exprs: unknown[]; ops: unknown[] };
}

declare module 'arquero/src/helpers/field.js' {
  export function field(expr: unknown, name?: string, table?: number): unknown;
}

declare module 'arquero/src/util/is-array-type.js' {
  export function isArrayType(value: unknown): boolean;
}
