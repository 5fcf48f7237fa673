/**
 * Hostile inputs for the file endpoint, built at test time so no megabyte fixture is committed: XML entity
 * attacks, and zip bombs written byte by byte (a reader must be tested against headers that lie, which no
 * zip library will write).
 */
import { constants, deflateRawSync } from 'node:zlib';

export const XXE_KML = `<?xml version="1.0"?>
<!DOCTYPE kml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>&xxe;</name>
<Point><coordinates>9.1,48.7,0</coordinates></Point></Placemark></kml>`;

export const BILLION_LAUGHS_GPX = `<?xml version="1.0"?>
<!DOCTYPE gpx [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1"><wpt lat="48.7" lon="9.1"><name>&lol9;</name></wpt></gpx>`;

/** An entity reference without any DTD: saxes must refuse it rather than expand or drop it. */
export const UNDECLARED_ENTITY_KML =
  '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>&lol9;</name></Placemark></kml>';

/** A KML nested `depth` Folders deep. */
export function deepKml(depth: number): string {
  return `<kml xmlns="http://www.opengis.net/kml/2.2">${'<Folder>'.repeat(depth)}${'</Folder>'.repeat(depth)}</kml>`;
}

/** A LineString of `bytes` bytes of coordinates inside the sample's bounds. */
export function coordinatesKml(bytes: number): string {
  const tuple = '9.123456,48.765432,0 ';
  return `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>${tuple.repeat(
    Math.ceil(bytes / tuple.length),
  )}</coordinates></LineString></Placemark></kml>`;
}

/**
 * Raw deflate of `mib` MiB of zeros without holding them: one full-flushed MiB (a non-final, byte-aligned
 * block sequence with no back-references across it) repeated, then an empty final block.
 */
function deflatedZeros(mib: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  return Buffer.concat([...new Array<Buffer>(mib).fill(chunk), deflateRawSync(Buffer.alloc(0))]);
}

/**
 * A one-entry zip (`doc.kml`) that inflates to `mib` MiB of zeros. `declaredSize` is what its headers claim
 * the entry unzips to: the true size, or a lie.
 */
export function zipBomb(mib: number, declaredSize = mib * 1024 * 1024): Buffer {
  const data = deflatedZeros(mib);
  const name = Buffer.from('doc.kml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(0, 14); // crc-32: never reached, the reader stops first
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(Math.min(declaredSize, 0xffffffff), 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(Math.min(declaredSize, 0xffffffff), 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
