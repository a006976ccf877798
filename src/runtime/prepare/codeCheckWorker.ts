/**
 * Entry point of the worker thread that checks and prepares a large program (codeChecker.ts):
 * one parse, off the thread that serves runs, so a slow parse can be cut off at the deadline.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkAndPrepare } from './checkAndPrepare.js';

const { source, preset } = workerData as { source: string; preset: Parameters<typeof checkAndPrepare>[1] };
parentPort!.postMessage(checkAndPrepare(source, preset));
