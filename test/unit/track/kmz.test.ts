/** KMZ archives as users send them, and the ones a demanding server refuses with a 4xx that says why. */
import { strToU8, zipSync, type Zippable } from 'fflate';
import { InvalidRequestError, PayloadTooLargeError } from '../../../layers/elevation';
import { readKmz, writeKmz } from '../../../layers/elevation/track/kmz';

const MiB = 1024 * 1024;
const KML = strToU8('<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>');

function zip(files: Zippable): Uint8Array {
  return zipSync(files);
}

/** The offset of each local file header's compression method (a zip's entries start with PK\3\4). */
function methodOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i++)
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 3 && bytes[i + 3] === 4)
      offsets.push(i + 8);
  return offsets;
}

it('finds doc.kml, else the first .kml at the root, and keeps the other entries and how they were stored', () => {
  const icon = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
  const archive = readKmz(zip({ 'files/icon.png': [icon, { level: 0 }], 'doc.kml': KML }), MiB);
  expect(archive.entries.map((e) => [e.name, e.stored])).toEqual([
    ['files/icon.png', true],
    ['doc.kml', false],
  ]);
  expect(archive.mainIndex).toBe(1);
  expect(readKmz(zip({ 'sub/a.kml': KML, 'track.KML': KML }), MiB).mainIndex).toBe(1);
  const again = readKmz(writeKmz(archive, strToU8('<kml/>')), MiB);
  expect(again.entries.map((e) => [e.name, e.stored, e.data.length])).toEqual([
    ['files/icon.png', true, icon.length],
    ['doc.kml', false, 6],
  ]);
});

it('refuses an archive with no main document', () => {
  expect(() => readKmz(zip({ 'sub/a.kml': KML, 'readme.txt': strToU8('hi') }), MiB)).toThrow(
    'The KMZ holds no doc.kml (nor any .kml at its root).',
  );
});

it('refuses more than 1000 entries', () => {
  const files: Zippable = { 'doc.kml': KML };
  for (let i = 0; i < 1000; i++) files[`files/${i}.txt`] = strToU8('x');
  expect(() => readKmz(zip(files), MiB)).toThrow(
    new InvalidRequestError('The KMZ has more than 1000 files.'),
  );
});

it('refuses an entry compressed with a method other than stored or deflate, naming it', () => {
  const bytes = zip({ 'doc.kml': KML });
  const [method] = methodOffsets(bytes);
  bytes[method] = 12; // bzip2
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
  const [method] = methodOffsets(bytes);
  bytes.fill(0xff, method + 40, method + 60); // inside the deflate stream, after the name
  expect(() => readKmz(bytes, MiB)).toThrow(InvalidRequestError);
  expect(() => readKmz(bytes, MiB)).toThrow(
    new InvalidRequestError("The KMZ entry 'doc.kml' cannot be unzipped: invalid length/literal."),
  );
});

it('prefers doc.kml to any other .kml at the root, and takes only names ending in .kml', () => {
  expect(readKmz(zip({ 'a.kml': KML, 'doc.kml': KML }), MiB).mainIndex).toBe(1);
  expect(readKmz(zip({ 'notes.kml.txt': strToU8('x'), 'track.kml': KML }), MiB).mainIndex).toBe(1);
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

it('refuses a zip cut inside its first entry, saying it is not a readable archive', () => {
  const bytes = zip({ 'doc.kml': strToU8('<kml>'.repeat(3000)) });
  const cut = bytes.subarray(0, 60);
  expect(() => readKmz(cut, MiB)).toThrow(InvalidRequestError);
  expect(() => readKmz(cut, MiB)).toThrow(
    new InvalidRequestError('The file is not a readable KMZ (zip) archive: invalid zip data.'),
  );
});
