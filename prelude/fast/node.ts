/** A node of Arquero's expression AST, as the fast filter path reads it. */
export type Node = { type: string; [key: string]: unknown };
