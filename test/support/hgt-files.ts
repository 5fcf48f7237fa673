/** SRTM .hgt test files made in code: zipped as SRTM downloads are (one entry, sizes in the local header). */
import { deflateRawSync } from 'node:zlib';

/** CRC-32 (zip's checksum), bitwise: zlib.crc32 needs Node 20.15+, and the tiles are written only once. */
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A one-entry zip with sizes in the local header (not streamed), as SRTM downloads are. `method` 0 stores the
 * data, 8 deflates it; any other number is written as is (over deflated data), as are `sizes` given.
 */
export function zipOf(
  name: string,
  data: Buffer,
  { method = 8, sizes }: { method?: number; sizes?: { compressed: number; uncompressed: number } } = {},
): Buffer {
  const compressed = method === 0 ? data : deflateRawSync(data);
  const fileName = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(method, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(sizes?.compressed ?? compressed.length, 18);
  local.writeUInt32LE(sizes?.uncompressed ?? data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(method, 10);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + compressed.length, 16);
  return Buffer.concat([local, fileName, compressed, central, fileName, end]);
}
