import { SbirtoolsValidationError } from '../runtime/errors.js';
import type { BundleData } from './targets.js';
import type { BundleSummary } from './writeBundle.js';

export async function writeWorkersBundle(_out: string, _data: BundleData): Promise<BundleSummary> {
  throw new SbirtoolsValidationError('workers: not yet');
}
