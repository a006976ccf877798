let table: Int32Array | undefined;

/** CRC-32 (IEEE, as zlib), table-driven in plain JavaScript: for runtimes without node:zlib (the edge). */
export function crc32Table(data: Uint8Array): number {
  table ??= Int32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c;
  });
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
