import type { TableSchema } from '../adapters/sessionStore.js';

/**
 * One line per table for models: its name, rows and every column with its type, e.g.
 * "portfolio (120 rows): UEI (string), Budget (number)".
 * @example tableSchemaLine(table)
 */
export function tableSchemaLine(t: TableSchema): string {
  return `${t.name} (${t.numRows} rows): ${t.columns.map((c) => `${c.name} (${c.type})`).join(', ')}`;
}
