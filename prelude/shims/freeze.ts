/**
 * The prelude's own `Object.freeze` (the build defines every `Object.freeze` in the bundle, Arquero's
 * included, as this captured builtin): the guest's `Object.freeze` is watched (data/sealWatch.ts),
 * and the tables Arquero freezes on every verb must not count as the guest freezing something.
 */
const O = Object;
export const __sbirtools_freeze = O.freeze;
