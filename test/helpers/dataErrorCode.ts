import { expect } from 'vitest';
import { DataError } from '../../src/data/index.js';

/** The DataError code `fn` throws ('loaded' when it does not throw); any other throw fails the test. */
export function dataErrorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    return (err as DataError).code;
  }
  return 'loaded';
}
