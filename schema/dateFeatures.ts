/**
 * The Date getters a loop over a date column reads as numbers (the preparation's
 * src/runtime/prepare/dateLoops.ts finds them; the prelude's prelude/fast/dateFeatures.ts answers
 * them). The local-time ones answer in the isolate's time zone, as the code as written would: each is
 * asked of a real Date. `valueOf`, `+d` and a comparison read `getTime`.
 */
export const DATE_FEATURES = [
  'getTime',
  'getUTCFullYear',
  'getUTCMonth',
  'getUTCDate',
  'getUTCDay',
  'getUTCHours',
  'getUTCMinutes',
  'getUTCSeconds',
  'getUTCMilliseconds',
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
  'getTimezoneOffset',
] as const;

/**
 * Date methods a row's real Date may be called with in a rewritten date loop (the preparation writes
 * the call on the row's Date; the prelude checks them intact before the loop starts).
 */
export const DATE_CALLS = [
  'toISOString',
  'toJSON',
  'toDateString',
  'toUTCString',
  'toString',
  'toLocaleDateString',
  'toLocaleString',
] as const;
