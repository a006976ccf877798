import { readSync } from 'node:fs';
import { blockSum } from './blockSum.js';
import { crc32 } from './crc32.js';

/**
 * The binary cache's checksummed blocks (format.ts), with no schema attached: a scan's worker
 * thread (scanWorker.ts) reads and checks blocks without loading zod.
 */

/** The checksum of one block: CRC-32 in format 2, {@link blockSum} in format 3 (format.ts). */
export type BlockCheck = (bytes: Uint8Array) => number;

/**
 * The block checksum of a cache file of format `version` (2 or 3, the versions a reader opens).
 * @example blockCheck(3)(block) === table[b]
 */
export function blockCheck(version: number): BlockCheck {
  return version === 2 ? crc32 : blockSum;
}

/** Bytes per checksummed block of a buffer (the last block of a buffer may be shorter). */
export const BLOCK_BYTES = 64 * 1024;

/** Blocks of a buffer of `length` bytes (entries of its block table). */
export const blockCount = (length: number): number => Math.ceil(length / BLOCK_BYTES);

/**
 * Fills `target` from the file at `position` (positional reads, any thread of the process).
 * @throws {Error} at the end of the file before `target` is full.
 * @example readInto(fd, new Uint8Array(24), 0);
 */
export function readInto(fd: number, target: Uint8Array, position: number): void {
  for (let done = 0; done < target.length;) {
    const n = readSync(fd, target, done, target.length - done, position + done);
    if (n === 0) throw new Error('unexpected end of file');
    done += n;
  }
}

/**
 * The first block of `bytes` whose checksum (`check`) is not its entry of the buffer's block table,
 * or -1 when every one matches. `bytes` start at block `first` of the buffer and end on a block
 * boundary or at the buffer's end.
 * @example if (badBlock(page, 12, table, blockCheck(3)) >= 0) refuse();
 */
export function badBlock(bytes: Uint8Array, first: number, table: Uint32Array, check: BlockCheck): number {
  for (let at = 0, b = first; at < bytes.length; at += BLOCK_BYTES, b++)
    if (check(bytes.subarray(at, Math.min(bytes.length, at + BLOCK_BYTES))) !== table[b]) return b;
  return -1;
}
