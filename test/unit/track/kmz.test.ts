/** KMZ archives as users send them, and the ones a demanding server refuses with a 4xx that says why. */
import { Zip, ZipDeflate, ZipPassThrough, strToU8, zipSync, type Zippable } from 'fflate';
import { InvalidRequestError, PayloadTooLargeError } from '../../../layers/elevation';
import { readKmz, writeKmz } from '../../../layers/elevation/track/kmz';

const MiB = 1024 * 1024;
const KML = strToU8('<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>');

function zip(files: Zippable): Uint8Array {
  return zipSync(files);
}

/** The offsets of the records that start with PK\<a>\<b>: local headers (3, 4), directory records (1, 2). */
function signatures(bytes: Uint8Array, a: number, b: number): number[] {
  const offsets: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++)
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === a && bytes[i + 3] === b)
      offsets.push(i);
  return offsets;
}
const localHeaders = (bytes: Uint8Array) => signatures(bytes, 3, 4);
const directoryRecords = (bytes: Uint8Array) => signatures(bytes, 1, 2);
const endOfDirectory = (bytes: Uint8Array) => signatures(bytes, 5, 6)[0];
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A zip as streaming writers make it: flag 8 set, zero CRC and sizes in the local headers, a data descriptor. */
function streamedZip(files: Record<string, { data: Uint8Array; stored: boolean }>): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  for (const [name, { data, stored }] of Object.entries(files)) {
    const entry = stored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    entry.push(data, true);
  }
  zip.end();
  return Buffer.concat(parts);
}

it('finds the first .kml in archive order, and keeps the other entries and how they were stored', () => {
  const icon = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
  const archive = readKmz(zip({ 'files/icon.png': [icon, { level: 0 }], 'doc.kml': KML }), MiB);
  expect(archive.entries.map((e) => [e.name, e.stored])).toEqual([
    ['files/icon.png', true],
    ['doc.kml', false],
  ]);
  expect(archive.mainIndex).toBe(1);
  expect(readKmz(zip({ 'sub/a.kml': KML, 'track.KML': KML }), MiB).mainIndex).toBe(0);
  const again = readKmz(writeKmz(archive, strToU8('<kml/>')), MiB);
  expect(again.entries.map((e) => [e.name, e.stored, e.data.length])).toEqual([
    ['files/icon.png', true, icon.length],
    ['doc.kml', false, 6],
  ]);
});

it('writes every entry under its own name, in order, whatever the name (__proto__, constructor)', () => {
  const entries = ['__proto__', 'doc.kml', 'constructor', 'files/toString.png', 'hasOwnProperty'];
  const archive = readKmz(
    streamedZip(
      Object.fromEntries(entries.map((name, i) => [name, { data: strToU8(`${i}`), stored: i % 2 === 0 }])),
    ),
    MiB,
  );
  expect(archive.entries.map((e) => e.name)).toEqual(entries);
  const again = readKmz(writeKmz(archive, strToU8('<kml/>')), MiB);
  expect(again.entries.map((e) => [e.name, e.stored, new TextDecoder().decode(e.data)])).toEqual([
    ['__proto__', true, '0'],
    ['doc.kml', false, '<kml/>'],
    ['constructor', true, '2'],
    ['files/toString.png', false, '3'],
    ['hasOwnProperty', true, '4'],
  ]);
});

it.each(['doc.kml', `files/${'x'.repeat(150)}.png`])(
  'refuses two entries named %s, naming it (at most 100 characters): which one is meant is unclear',
  (name) => {
    const parts: Uint8Array[] = [];
    const twice = new Zip((error, chunk) => {
      if (error) throw error;
      parts.push(chunk);
    });
    const entries = name === 'doc.kml' ? [name, name] : ['doc.kml', name, name];
    for (const entryName of entries) {
      const entry = new ZipPassThrough(entryName); // as Python's zipfile writes it, warning only
      twice.add(entry);
      entry.push(strToU8('<kml/>'), true);
    }
    twice.end();
    expect(() => readKmz(Buffer.concat(parts), MiB)).toThrow(
      `The KMZ holds two entries named '${name.slice(0, 100)}': which one is meant is unclear. Zip the files again, each once.`,
    );
  },
);

it('names the track file a zip holds instead of a KML, and says what to send', () => {
  const gpx = strToU8('<gpx version="1.1"/>');
  expect(() => readKmz(zip({ 'readme.txt': strToU8('hi'), 'rides/Route 1.GPX': gpx }), MiB)).toThrow(
    "The zip holds 'rides/Route 1.GPX', not a KML: a zip is read as a KMZ only; send that file itself, or gzip-compressed.",
  );
  expect(() => readKmz(zip({ 'a.geojson': strToU8('{}') }), MiB)).toThrow(
    /^The zip holds 'a\.geojson', not a KML/,
  );
  const long = `${'d/'.repeat(60)}x.gpx`;
  expect(() => readKmz(zip({ [long]: gpx }), MiB)).toThrow(
    `The zip holds '${long.slice(0, 100)}', not a KML`,
  );
  // Only the name's end counts: 'notes.gpx.txt' is not a track file.
  expect(() => readKmz(zip({ 'notes.gpx.txt': gpx }), MiB)).toThrow(
    'The KMZ holds no .kml file (a KMZ is a zip whose first .kml, usually doc.kml, is the document).',
  );
});

it('refuses an archive with no .kml file, a folder named like one included', () => {
  expect(() => readKmz(zip({ 'trip.kml/': {}, 'readme.txt': strToU8('hi') }), MiB)).toThrow(
    'The KMZ holds no .kml file (a KMZ is a zip whose first .kml, usually doc.kml, is the document).',
  );
});

it('takes 1000 entries, and refuses more', () => {
  const most: Zippable = { 'doc.kml': KML };
  for (let i = 0; i < 999; i++) most[`files/${i}.txt`] = strToU8('x');
  expect(readKmz(zip(most), MiB).entries).toHaveLength(1000);
  const files: Zippable = { 'doc.kml': KML };
  for (let i = 0; i < 1000; i++) files[`files/${i}.txt`] = strToU8('x');
  expect(() => readKmz(zip(files), MiB)).toThrow(
    new InvalidRequestError('The KMZ has more than 1000 files.'),
  );
});

it('refuses an entry compressed with a method other than stored or deflate, naming it', () => {
  const bytes = zip({ 'doc.kml': KML });
  const [record] = directoryRecords(bytes);
  bytes[record + 10] = 12; // bzip2, as the central directory (which unzip tools trust) says
  expect(() => readKmz(bytes, MiB)).toThrow(
    new InvalidRequestError("The KMZ entry 'doc.kml' uses an unsupported compression method."),
  );
});

it('answers 413 for an entry whose header declares more than the limit, before unzipping it', () => {
  const big = zip({ 'doc.kml': new Uint8Array(2 * MiB) });
  expect(() => readKmz(big, MiB)).toThrow(PayloadTooLargeError);
  expect(() => readKmz(big, MiB)).toThrow(/unzips to more than 1 MiB, the limit \(MAX_KMZ_UNZIPPED_MB\)/);
});

it('refuses an entry whose deflate data is corrupt, naming it', () => {
  const bytes = zip({ 'doc.kml': strToU8('<kml>'.repeat(2000)) });
  const [local] = localHeaders(bytes);
  bytes.fill(0xff, local + 48, local + 68); // inside the deflate stream, after the name
  expect(() => readKmz(bytes, MiB)).toThrow(InvalidRequestError);
  expect(() => readKmz(bytes, MiB)).toThrow(/^The KMZ entry 'doc.kml' cannot be unzipped: invalid .+\.$/);
});

it('takes the first .kml in archive order, as Google Earth and OGR do, not a later doc.kml', () => {
  // Google's KMZ documentation: Earth reads the first .kml in the archive and ignores the rest; doc.kml is a
  // convention. Filling a later doc.kml answered heights in a document no viewer shows.
  expect(readKmz(zip({ 'a.kml': KML, 'doc.kml': KML }), MiB).mainIndex).toBe(0);
  expect(readKmz(zip({ 'notes.kml.txt': strToU8('x'), 'track.kml': KML }), MiB).mainIndex).toBe(1);
});

it("skips macOS's AppleDouble entries (__MACOSX/._doc.kml, ._doc.kml): resource forks, never a KML", () => {
  // Finder's "Compress" adds them; one listed first would be taken as the document and refused as not XML.
  const fork = new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0, 77, 97, 99, 32, 79, 83, 32, 88]);
  expect(readKmz(zip({ '__MACOSX/._doc.kml': fork, 'doc.kml': KML }), MiB).mainIndex).toBe(1);
  expect(readKmz(zip({ 'trip/._doc.kml': fork, 'trip/doc.kml': KML }), MiB).mainIndex).toBe(1);
  expect(() => readKmz(zip({ '__MACOSX/._doc.kml': fork }), MiB)).toThrow(/holds no \.kml file/);
});

it('reads a doc.kml in a folder, as OGR does (files/doc.kml, Straße/doc.kml)', () => {
  const icon = strToU8('PNG');
  expect(readKmz(zip({ 'files/': {}, 'files/doc.kml': KML, 'files/icon.png': icon }), MiB).mainIndex).toBe(1);
  expect(readKmz(zip({ 'Straße/doc.kml': KML }), MiB).entries[0].name).toBe('Straße/doc.kml');
});

it('takes an entry of exactly the limit, unzipped', () => {
  const limit = 64 * 1024;
  const exact = readKmz(zip({ 'doc.kml': new Uint8Array(limit) }), limit);
  expect(exact.entries[0].data.length).toBe(limit);
  expect(() => readKmz(zip({ 'doc.kml': new Uint8Array(limit + 1) }), limit)).toThrow(PayloadTooLargeError);
  // Two entries together over the limit, each under it.
  expect(() =>
    readKmz(zip({ 'doc.kml': new Uint8Array(limit / 2 + 1), 'b.bin': new Uint8Array(limit / 2) }), limit),
  ).toThrow(PayloadTooLargeError);
});

it('reads a large archive pushed in slices, entries unzipped in several chunks, byte for byte', () => {
  // 600 KiB of text that does not compress to nothing: several 16 KiB input slices and output chunks.
  let text = '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>';
  for (let i = 0; text.length < 600 * 1024; i++) text += `<!-- ${(i * 2654435761) % 4294967296} -->`;
  text += '</Document></kml>';
  const bytes = zip({
    'files/logo.png': [strToU8('x'.repeat(40_000)), { level: 0 }],
    'doc.kml': strToU8(text),
  });
  expect(bytes.length).toBeGreaterThan(3 * 16 * 1024);
  const archive = readKmz(bytes, 4 * MiB);
  expect(new TextDecoder().decode(archive.entries[archive.mainIndex].data)).toBe(text);
  expect(archive.entries[0].data.length).toBe(40_000);
});

it('refuses a zip cut short anywhere, even after a whole first entry, saying it is not a readable archive', () => {
  const bytes = zip({ 'doc.kml': strToU8('<kml>'.repeat(3000)), 'files/b.png': strToU8('x'.repeat(500)) });
  const [, second] = localHeaders(bytes);
  for (const cut of [bytes.subarray(0, 60), bytes.subarray(0, second), bytes.subarray(0, bytes.length - 1)]) {
    expect(() => readKmz(cut, MiB)).toThrow(
      new InvalidRequestError(
        'The file is not a readable KMZ (zip) archive: it has no central directory (cut short, or not a zip).',
      ),
    );
  }
});

describe('an entry whose bytes do not match what the archive recorded is refused, never read', () => {
  const kml =
    '<kml><Placemark><LineString><coordinates>9.100,48.700 9.200,48.800</coordinates></LineString></Placemark></kml>';

  it('refuses a stored doc.kml with one digit of a coordinate changed (its CRC-32 differs)', () => {
    const bytes = zip({ 'doc.kml': [strToU8(kml), { level: 0 }] });
    const at = Buffer.from(bytes).indexOf('48.700');
    bytes[at + 1] = '9'.charCodeAt(0); // 49.700: the height of a place 111 km away
    expect(() => readKmz(bytes, MiB)).toThrow(
      new InvalidRequestError(
        "The KMZ entry 'doc.kml' is damaged: its CRC-32 does not match the archive's directory. Send the file again, or its doc.kml alone.",
      ),
    );
  });

  it('never reads a deflated doc.kml or icon with a flipped bit as anything but its original bytes', () => {
    const bytes = zip({ 'doc.kml': strToU8(kml.repeat(20)), 'files/icon.png': strToU8('PNG'.repeat(50)) });
    const [first, second] = localHeaders(bytes);
    const firstData = first + 30 + 'doc.kml'.length;
    const secondData = second + 30 + 'files/icon.png'.length;
    const dataBytes = [
      ...Array.from({ length: second - firstData }, (_, i) => firstData + i),
      ...Array.from({ length: directoryRecords(bytes)[0] - secondData }, (_, i) => secondData + i),
    ];
    const original = readKmz(bytes, MiB).entries.map((e) => Buffer.from(e.data).toString('latin1'));
    const outcome = (damaged: Uint8Array): string => {
      try {
        const read = readKmz(damaged, MiB).entries.map((e) => Buffer.from(e.data).toString('latin1'));
        // A flip in a deflate stream's unused padding bits changes nothing: then the entries read unchanged.
        return read.every((text, k) => text === original[k]) ? 'read unchanged' : 'read changed';
      } catch (error) {
        return error instanceof InvalidRequestError ? 'refused' : 'failed';
      }
    };
    const outcomes = dataBytes.flatMap((at) =>
      [0, 3, 7].map((bit) => {
        const damaged = bytes.slice();
        damaged[at] ^= 1 << bit;
        return outcome(damaged);
      }),
    );
    expect(new Set(outcomes)).toEqual(new Set(['refused', 'read unchanged']));
    expect(outcomes.filter((o) => o === 'refused').length).toBeGreaterThan(outcomes.length - 6);
  });

  it('refuses an entry that unzips to another size than its directory records', () => {
    const bytes = zip({ 'doc.kml': strToU8(kml) });
    const [record] = directoryRecords(bytes);
    view(bytes).setUint32(record + 24, kml.length - 1, true);
    expect(() => readKmz(bytes, MiB)).toThrow(
      new InvalidRequestError(
        "The KMZ entry 'doc.kml' is damaged: its size does not match the archive's directory. Send the file again, or its doc.kml alone.",
      ),
    );
  });

  it('answers 413 for an entry that declares a few bytes and inflates past the limit', () => {
    const bytes = zip({ 'doc.kml': new Uint8Array(2 * MiB) });
    const [record] = directoryRecords(bytes);
    view(bytes).setUint32(record + 24, 10, true);
    expect(() => readKmz(bytes, MiB)).toThrow(PayloadTooLargeError);
  });

  it('answers 413 for overlapping entries (a directory that points many names at one deflate stream)', () => {
    const one = zip({ 'doc.kml': new Uint8Array(400 * 1024) });
    const [record] = directoryRecords(one);
    const eocd = endOfDirectory(one);
    const recordBytes = one.slice(record, eocd);
    const copies = 3;
    const bomb = new Uint8Array(record + copies * recordBytes.length + 22);
    bomb.set(one.subarray(0, record));
    for (let i = 0; i < copies; i++) {
      bomb.set(recordBytes, record + i * recordBytes.length);
      bomb[record + i * recordBytes.length + 46] = 0x61 + i; // names aoc.kml, boc.kml…: each once
    }
    bomb.set(one.subarray(eocd, eocd + 22), record + copies * recordBytes.length);
    const end = view(bomb);
    const at = record + copies * recordBytes.length;
    end.setUint16(at + 8, copies, true);
    end.setUint16(at + 10, copies, true);
    end.setUint32(at + 12, copies * recordBytes.length, true);
    expect(readKmz(bomb, 2 * MiB).entries).toHaveLength(copies); // 1.2 MiB: under the limit, read
    expect(() => readKmz(bomb, MiB)).toThrow(PayloadTooLargeError);
  });
});

describe('zips as other writers make them', () => {
  it('reads entries streamed with data descriptors (no CRC or sizes in the local headers), stored and deflated', () => {
    const icon = strToU8('x'.repeat(3000));
    const bytes = streamedZip({
      'doc.kml': { data: KML, stored: false },
      'files/icon.png': { data: icon, stored: true },
    });
    expect(bytes[localHeaders(bytes)[0] + 6] & 8).toBe(8);
    const archive = readKmz(bytes, MiB);
    expect(archive.entries.map((e) => [e.name, e.stored, e.data.length])).toEqual([
      ['doc.kml', false, KML.length],
      ['files/icon.png', true, 3000],
    ]);
    expect(archive.entries[0].data).toEqual(KML);
  });

  it('still checks the CRC of a streamed entry, against its directory record', () => {
    const bytes = streamedZip({ 'doc.kml': { data: KML, stored: true } });
    bytes[localHeaders(bytes)[0] + 30 + 'doc.kml'.length + 1] ^= 0x20;
    expect(() => readKmz(bytes, MiB)).toThrow(/CRC-32 does not match/);
  });

  it('reads an archive with a comment after its directory', () => {
    const bytes = zip({ 'doc.kml': KML });
    const comment = strToU8('made by a GIS tool');
    const commented = new Uint8Array(bytes.length + comment.length);
    commented.set(bytes);
    commented.set(comment, bytes.length);
    view(commented).setUint16(endOfDirectory(commented) + 20, comment.length, true);
    expect(readKmz(commented, MiB).entries[0].data).toEqual(KML);
  });

  it('refuses what it does not read, saying what it is: ZIP64, split archives, encryption, bytes before the zip', () => {
    const refusal = (change: (bytes: Uint8Array) => Uint8Array | void): string => {
      const bytes = zip({ 'doc.kml': KML });
      const changed = change(bytes) ?? bytes;
      try {
        readKmz(changed, MiB);
        return 'read';
      } catch (error) {
        return error instanceof InvalidRequestError ? error.message : `not a 400: ${String(error)}`;
      }
    };
    const archive = 'The file is not a readable KMZ (zip) archive: ';
    expect(refusal((b) => view(b).setUint16(endOfDirectory(b) + 10, 0xffff, true))).toBe(
      `${archive}it is a ZIP64 archive, which is not supported.`,
    );
    expect(refusal((b) => view(b).setUint32(endOfDirectory(b) + 16, 0xffffffff, true))).toBe(
      `${archive}it is a ZIP64 archive, which is not supported.`,
    );
    expect(refusal((b) => view(b).setUint32(endOfDirectory(b) + 12, 0xffffffff, true))).toBe(
      `${archive}it is a ZIP64 archive, which is not supported.`,
    );
    expect(refusal((b) => view(b).setUint16(endOfDirectory(b) + 4, 1, true))).toBe(
      `${archive}it is split over several files.`,
    );
    expect(refusal((b) => view(b).setUint16(endOfDirectory(b) + 6, 1, true))).toBe(
      `${archive}it is split over several files.`,
    );
    expect(refusal((b) => view(b).setUint16(directoryRecords(b)[0] + 8, 1, true))).toBe(
      "The KMZ entry 'doc.kml' is encrypted; send it unencrypted.",
    );
    expect(refusal((b) => Buffer.concat([Buffer.from('#!/bin/sh\n'), b]))).toBe(
      `${archive}its central directory is damaged.`,
    );
    expect(refusal((b) => view(b).setUint32(directoryRecords(b)[0] + 42, 1, true))).toBe(
      `${archive}the entry 'doc.kml' is not where its directory says.`,
    );
    for (const fromEnd of [2, 29]) {
      expect(refusal((b) => view(b).setUint32(directoryRecords(b)[0] + 42, b.length - fromEnd, true))).toBe(
        `${archive}the entry 'doc.kml' is not where its directory says.`,
      );
    }
    expect(refusal((b) => view(b).setUint32(endOfDirectory(b) + 12, 1000, true))).toBe(
      `${archive}its central directory lies outside the file.`,
    );
    expect(refusal((b) => view(b).setUint32(directoryRecords(b)[0], 0, true))).toBe(
      `${archive}its central directory is damaged.`,
    );
    expect(refusal((b) => view(b).setUint16(directoryRecords(b)[0] + 28, 200, true))).toBe(
      `${archive}its central directory is damaged.`,
    );
    expect(refusal((b) => view(b).setUint32(directoryRecords(b)[0] + 20, 5000, true))).toBe(
      `${archive}the entry 'doc.kml' runs past the end of the file.`,
    );
  });

  it('reads directory records and local headers with extra fields and comments, each entry from its own data', () => {
    const extra = { 0xcafe: strToU8('0123456789ab') };
    const icon = strToU8('PNG'.repeat(40));
    const bytes = zip({
      'files/icon.png': [icon, { level: 0, extra, comment: 'an icon' }],
      'doc.kml': [KML, { extra: { 0xbeef: strToU8('x'.repeat(300)) }, comment: 'the document' }],
    });
    const archive = readKmz(bytes, MiB);
    expect(archive.entries.map((e) => e.name)).toEqual(['files/icon.png', 'doc.kml']);
    expect(archive.entries[0].data).toEqual(icon);
    expect(archive.entries[1].data).toEqual(KML);
  });

  it('reads an archive with the longest comment a zip can hold (65,535 bytes)', () => {
    const bytes = zip({ 'doc.kml': KML });
    const commented = new Uint8Array(bytes.length + 0xffff).fill(0x20);
    commented.set(bytes);
    view(commented).setUint16(endOfDirectory(commented) + 20, 0xffff, true);
    expect(readKmz(commented, MiB).entries[0].data).toEqual(KML);
  });

  it('is not fooled by a comment that holds an end-of-directory signature of its own', () => {
    const bytes = zip({ 'doc.kml': KML });
    // A fake end record saying "no entries", 22 bytes, then 8 more: it does not end the file, so it is not the end.
    const fake = new Uint8Array(30);
    view(fake).setUint32(0, 0x06054b50, true);
    const commented = new Uint8Array(bytes.length + fake.length);
    commented.set(bytes);
    commented.set(fake, bytes.length);
    view(commented).setUint16(bytes.length - 2, fake.length, true);
    expect(readKmz(commented, MiB).entries.map((e) => e.name)).toEqual(['doc.kml']);
  });

  it('reads a directory record with an empty name as an entry, not as damage', () => {
    const bytes = zip({ 'doc.kml': KML });
    const [record] = directoryRecords(bytes);
    const eocd = endOfDirectory(bytes);
    // The record without its name, then the end record saying the directory is 46 bytes.
    const nameless = Buffer.concat([bytes.subarray(0, record + 46), bytes.subarray(eocd)]);
    view(nameless).setUint16(record + 28, 0, true);
    view(nameless).setUint32(record + 46 + 12, 46, true);
    expect(() => readKmz(nameless, MiB)).toThrow(
      'The KMZ holds no .kml file (a KMZ is a zip whose first .kml, usually doc.kml, is the document).',
    );
  });

  it('reads a name without the UTF-8 flag as latin1, and one with it as UTF-8', () => {
    const bytes = zip({ 'caf\u00e9.kml': KML });
    const [record] = directoryRecords(bytes);
    expect(view(bytes).getUint16(record + 8, true) & 0x800).toBe(0x800);
    expect(readKmz(bytes, MiB).entries[0].name).toBe('caf\u00e9.kml');
    view(bytes).setUint16(record + 8, 0, true);
    expect(readKmz(bytes, MiB).entries[0].name).toBe('caf\u00c3\u00a9.kml');
  });
});
