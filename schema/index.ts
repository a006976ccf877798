// `sbirtools/schema`: the zod schemas and the types derived from them, for validating what a
// run, a tool call or a handler returns without loading the runtime. A plain list of re-exports.
export * from './limits.js';
export * from './errors.js';
export * from './result.js';
export * from './tool.js';
export * from './options.js';
export * from './columnar.js';
export * from './guest.js';
export * from './sbirColumns.js';
