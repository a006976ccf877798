/**
 * Buffer roles per column kind, in file order (the binary cache's and the data folder's). Its own
 * file, with no Buffer: the edge worker (src/edge/) reads data folders through it too.
 */
export const ROLES = {
  float64: ['values', 'valid'],
  bool: ['values', 'valid'],
  utf8: ['bytes', 'offsets', 'valid'],
  dict: ['codes', 'dictBytes', 'dictOffsets'],
} as const;
