/**
 * Heights written into FIT files: in place where a record definition has altitude fields, added where it has none,
 * read back by fit-file-parser (both CRCs checked) as written, with every other message, field and byte of the
 * file as it was (developer fields, compressed timestamps, big-endian definitions, both header sizes); and the 4xx
 * a file gets when it cannot be written safely.
 */
import FitParser, { FitBaseType, FitEncoder, readFitMessages } from 'fit-file-parser';
import {
  InvalidRequestError,
  PayloadTooLargeError,
  fillFileHeights,
  loadDatasetRegistry,
} from '../../../layers/elevation';
import { MAX_FIT_BYTES, readFitPath } from '../../../layers/elevation/track/fit';
import { readFitPoints, writeFitHeights } from '../../../layers/elevation/track/fit-heights';
import {
  DEVICE_HEADER,
  bytesOf,
  fitFile,
  rawFitFile,
  semicirclesOf,
  type RawFitMessage,
} from '../../support/fit-files';

interface ParsedRecord {
  position_lat?: number;
  position_long?: number;
  altitude?: number;
  enhanced_altitude?: number;
  heart_rate?: number;
  timestamp?: unknown;
}

/** fit-file-parser's records, with its header and file CRC checks on (force: false). */
function parsedRecords(bytes: Uint8Array): ParsedRecord[] {
  let records: ParsedRecord[] | undefined;
  let problem: string | undefined;
  new FitParser({ force: false, mode: 'list' }).parse(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Buffer<ArrayBuffer>,
    (error, data) => {
      problem = error;
      records = data?.records as ParsedRecord[] | undefined;
    },
  );
  if (problem !== undefined || !records) throw new Error(`fit-file-parser: ${String(problem)}`);
  return records;
}

const T0 = 1_100_000_000;
const u16 = (m: number) => Math.round((m + 500) * 5);

/** An activity as a Garmin writes it: records with time, position, both altitude fields and heart rate. */
function garminLike(points: ([number, number] | null)[], fields: 'both' | 'altitude' | 'enhanced' | 'none') {
  const encoder = new FitEncoder(DEVICE_HEADER);
  encoder.writeMessage(0, [{ number: 0, size: 1, baseType: FitBaseType.Enum, value: 4 }]);
  points.forEach((point, i) => {
    const altitude = 300 + i; // what the barometer said
    encoder.writeMessage(20, [
      { number: 253, size: 4, baseType: FitBaseType.Uint32, value: T0 + i },
      ...(point
        ? [
            { number: 0, size: 4, baseType: FitBaseType.Sint32, value: semicirclesOf(point[0]) },
            { number: 1, size: 4, baseType: FitBaseType.Sint32, value: semicirclesOf(point[1]) },
          ]
        : []),
      ...(fields === 'both' || fields === 'altitude'
        ? [{ number: 2, size: 2, baseType: FitBaseType.Uint16, value: u16(altitude) }]
        : []),
      ...(fields === 'both' || fields === 'enhanced'
        ? [{ number: 78, size: 4, baseType: FitBaseType.Uint32, value: u16(altitude) }]
        : []),
      { number: 3, size: 1, baseType: FitBaseType.Uint8, value: 120 + i },
    ]);
  });
  encoder.writeMessage(18, [{ number: 22, size: 2, baseType: FitBaseType.Uint16, value: 42 }]); // session: total_ascent
  return Buffer.from(encoder.close());
}

/** A file of records of one definition (fields: [number, size, base type]), one data message a row of bytes. */
function recordsFile(fields: [number, number, number][], ...rows: number[][]): Buffer {
  return rawFitFile([
    { kind: 'definition', local: 0, global: 20, fields },
    ...rows.map((bytes): RawFitMessage => ({ kind: 'data', local: 0, bytes })),
  ]);
}

const RIDE: [number, number][] = [
  [48.7, 9.1],
  [48.71, 9.11],
  [48.72, 9.12],
];

describe('readFitPoints', () => {
  it('finds the records with a position, in order, with the height they hold (enhanced_altitude first)', () => {
    const file = garminLike([null, ...RIDE], 'both');
    const points = readFitPoints(file, 100);
    expect(points.map((p) => p.height)).toEqual([301, 302, 303]);
    points.forEach((p, i) => {
      expect(p.location.lat).toBeCloseTo(RIDE[i][0], 7);
      expect(p.location.lon).toBeCloseTo(RIDE[i][1], 7);
    });
    expect(readFitPoints(garminLike(RIDE, 'altitude'), 100).map((p) => p.height)).toEqual([300, 301, 302]);
    expect(readFitPoints(garminLike(RIDE, 'none'), 100).map((p) => p.height)).toEqual([null, null, null]);
  });

  it('finds the positions fit-file-parser’s semantic parse finds, as the profile’s reader does', () => {
    const file = garminLike([null, ...RIDE, null, [-33.9, 151.2], [40.7, -74.0], [-22.9, -43.2]], 'enhanced');
    const located = parsedRecords(file).filter((r) => r.position_lat !== undefined);
    const points = readFitPoints(file, 100);
    expect(points).toHaveLength(located.length);
    points.forEach((p, i) => {
      expect(p.location.lat).toBeCloseTo(located[i].position_lat as number, 9);
      expect(p.location.lon).toBeCloseTo(located[i].position_long as number, 9);
    });
    expect(readFitPath(file, 100)).toEqual(points.map((p) => p.location));
  });

  it('refuses a position beyond the poles, naming its record', () => {
    const at = (lat: number) => [...bytesOf(4, semicirclesOf(lat)), ...bytesOf(4, semicirclesOf(9.5))];
    const position: [number, number, number][] = [
      [0, 4, 0x85],
      [1, 4, 0x85],
    ];
    const file = recordsFile(position, at(48.5), at(95));
    expect(() => readFitPoints(file, 10)).toThrow(
      /^Invalid latitude 95\.\d* at record 2 of the FIT file: latitude must be between -90 and 90\.$/,
    );
  });

  it('reads a field holding FIT’s invalid marker as no value: enhanced_altitude, then altitude', () => {
    const fields: [number, number, number][] = [
      [0, 4, 0x85],
      [1, 4, 0x85],
      [2, 2, 0x84],
      [78, 4, 0x86],
    ];
    const position = [...bytesOf(4, semicirclesOf(48.5)), ...bytesOf(4, semicirclesOf(9.5))];
    const file = recordsFile(
      fields,
      [...position, ...bytesOf(2, u16(300)), ...bytesOf(4, u16(310))],
      [...position, ...bytesOf(2, u16(300)), ...bytesOf(4, 0xffffffff)],
      [...position, ...bytesOf(2, 0xffff), ...bytesOf(4, 0xffffffff)],
    );
    expect(readFitPoints(file, 10).map((p) => p.height)).toEqual([310, 300, null]);
  });

  it('steps over a definition’s developer fields to the next message', () => {
    const definition = {
      kind: 'definition' as const,
      local: 0,
      global: 20,
      fields: [
        [0, 4, 0x85],
        [1, 4, 0x85],
      ] as [number, number, number][],
    };
    const position = (lat: number) => [...bytesOf(4, semicirclesOf(lat)), ...bytesOf(4, semicirclesOf(9.5))];
    // One developer field of 1 byte; the message after the definition starts with a non-zero byte.
    const file = rawFitFile([
      { ...definition, developerFields: [[0, 1, 0]] },
      { kind: 'data', local: 0, bytes: [...position(48.25), 7] },
      { kind: 'data', local: 0, bytes: [...position(48.75), 8] },
    ]);
    expect(readFitPoints(file, 10).map((p) => Math.round(p.location.lat * 100) / 100)).toEqual([
      48.25, 48.75,
    ]);
  });

  it('stops at the coordinate limit', () => {
    expect(readFitPoints(fitFile(RIDE), 3)).toHaveLength(3);
    expect(() => readFitPoints(fitFile(RIDE), 2)).toThrow(
      'The FIT file has more than 2 positions, the limit per request (MAX_FILE_COORDINATES). Split it into smaller files.',
    );
  });
});

describe('writeFitHeights where records have altitude fields', () => {
  it('writes both fields in place: the file keeps its size, and only their bytes and the CRCs change', () => {
    const file = garminLike([null, ...RIDE], 'both');
    const out = writeFitHeights(file, [450.25, null, 1234.5]);
    expect(out).toHaveLength(file.length);
    const records = parsedRecords(out);
    // Stored in fifths of a metre: 450.25 → 450.2, 1234.5 → 1234.6 (half up).
    const written = [300, 450.2, 302, 1234.6];
    records.forEach((r, i) => {
      expect(r.enhanced_altitude).toBeCloseTo(written[i], 6);
      expect(r.altitude).toBeCloseTo(written[i], 6);
    });
    // Everything else as it was: heart rates, positions, the session after the records.
    expect(records.map((r) => r.heart_rate)).toEqual([120, 121, 122, 123]);
    expect(records.map((r) => r.position_lat)).toEqual(parsedRecords(file).map((r) => r.position_lat));
    const changed = [...out].flatMap((b, i) => (b === file[i] ? [] : [i]));
    // 2 records × (2 + 4 bytes at most), the header CRC is over unchanged bytes, the file CRC's 2 bytes.
    expect(changed.length).toBeLessThanOrEqual(2 * 6 + 2);
    expect(changed.every((i) => i >= 14)).toBe(true);
  });

  it('changes no other field of any record, whichever altitude fields a definition has', () => {
    for (const fields of ['both', 'altitude', 'enhanced'] as const) {
      const file = garminLike([null, ...RIDE], fields);
      const others = (bytes: Uint8Array) =>
        readFitMessages(bytes, { messageNumbers: [20] }).messages.map((m) =>
          m.fields
            .filter((f) => f.fieldNumber !== 2 && f.fieldNumber !== 78)
            .map((f) => [f.fieldNumber, ...f.bytes]),
        );
      expect(others(writeFitHeights(file, [1000, 2000, 3000]))).toEqual(others(file));
    }
  });

  it('writes only the field a definition has', () => {
    const enhanced = parsedRecords(writeFitHeights(garminLike(RIDE, 'enhanced'), [10, 20, 30]));
    expect(enhanced.map((r) => [r.altitude, r.enhanced_altitude])).toEqual([
      [undefined, 10],
      [undefined, 20],
      [undefined, 30],
    ]);
    const altitude = readFitMessages(writeFitHeights(garminLike(RIDE, 'altitude'), [10, 20, 30]), {
      messageNumbers: [20],
    });
    expect(altitude.messages.every((m) => !m.fields.some((f) => f.fieldNumber === 78))).toBe(true);
    expect(
      parsedRecords(writeFitHeights(garminLike(RIDE, 'altitude'), [10, 20, 30])).map((r) => r.altitude),
    ).toEqual([10, 20, 30]);
  });

  it('writes a height beyond altitude’s 16 bits into enhanced_altitude only, altitude marked invalid', () => {
    const four: [number, number][] = [...RIDE, [48.73, 9.13]];
    const out = readFitMessages(writeFitHeights(garminLike(four, 'both'), [13_000, -400, -500, -600]), {
      messageNumbers: [20],
    });
    const field = (i: number, n: number) => {
      const f = out.messages[i].fields.find((x) => x.fieldNumber === n)!;
      return f.size === 2 ? Buffer.from(f.bytes).readUInt16LE() : Buffer.from(f.bytes).readUInt32LE();
    };
    expect([field(0, 2), field(0, 78)]).toEqual([0xffff, u16(13_000)]);
    expect([field(1, 2), field(1, 78)]).toEqual([u16(-400), u16(-400)]);
    expect([field(2, 2), field(2, 78)]).toEqual([0, 0]); // -500 m: the lowest both can hold
    expect([field(3, 2), field(3, 78)]).toEqual([0xffff, 0xffffffff]); // below it: invalid in both
  });
  it("writes FIT's invalid marker into both fields for 'invalid', and leaves a point for null", () => {
    const file = garminLike(RIDE, 'both');
    const out = readFitMessages(writeFitHeights(file, ['invalid', null, 5]), { messageNumbers: [20] });
    const field = (i: number, n: number) => {
      const f = out.messages[i].fields.find((x) => x.fieldNumber === n)!;
      return f.size === 2 ? Buffer.from(f.bytes).readUInt16LE() : Buffer.from(f.bytes).readUInt32LE();
    };
    expect([field(0, 2), field(0, 78)]).toEqual([0xffff, 0xffffffff]);
    expect([field(1, 2), field(1, 78)]).toEqual([u16(301), u16(301)]); // the device's, as it was
    expect([field(2, 2), field(2, 78)]).toEqual([u16(5), u16(5)]);
    expect(
      readFitPoints(writeFitHeights(garminLike(RIDE, 'none'), ['invalid', null, 5]), 10).map((p) => p.height),
    ).toEqual([null, null, 5]);
  });
});

describe('writeFitHeights where records have no altitude field', () => {
  it('adds altitude and enhanced_altitude to the definition and to every record: 6 bytes each', () => {
    const file = garminLike([null, ...RIDE], 'none');
    const out = writeFitHeights(file, [450, null, 470]);
    // FitEncoder defines a record twice (without a position, then with one): 2 definitions and 4 records grew.
    expect(out.length).toBe(file.length + 6 * (2 + 4));
    const records = parsedRecords(out);
    expect(records.map((r) => r.altitude)).toEqual([undefined, 450, undefined, 470]);
    expect(records.map((r) => r.enhanced_altitude)).toEqual([undefined, 450, undefined, 470]);
    expect(records.map((r) => r.heart_rate)).toEqual([120, 121, 122, 123]);
  });
});

describe('writeFitHeights keeps what it does not write', () => {
  const LAT = bytesOf(4, semicirclesOf(48.7));
  const LON = bytesOf(4, semicirclesOf(9.1));
  const messages: RawFitMessage[] = [
    { kind: 'definition', local: 0, global: 0, fields: [[0, 1, 0]] },
    { kind: 'data', local: 0, bytes: [4] },
    // A developer data id and a field description, as a Connect IQ data field writes them.
    { kind: 'definition', local: 1, global: 207, fields: [[3, 1, 2]] },
    { kind: 'data', local: 1, bytes: [0] },
    {
      kind: 'definition',
      local: 2,
      global: 20,
      fields: [
        [253, 4, 0x86],
        [0, 4, 0x85],
        [1, 4, 0x85],
        [3, 1, 0x02],
      ],
      developerFields: [
        [0, 2, 0],
        [1, 1, 0],
      ],
    },
    { kind: 'data', local: 2, bytes: [...bytesOf(4, T0), ...LAT, ...LON, 150, 0xaa, 0xbb, 0xa1] },
    // Compressed timestamps: field 253 left out, the time in the header.
    {
      kind: 'compressed',
      local: 2,
      timeOffset: (T0 + 1) & 31,
      bytes: [...LAT, ...LON, 151, 0xcc, 0xdd, 0xc1],
    },
    {
      kind: 'compressed',
      local: 2,
      timeOffset: (T0 + 2) & 31,
      bytes: [...bytesOf(4, 0x7fffffff), ...LON, 152, 1, 2, 3],
    },
    // The same record shape, big-endian, with enhanced_altitude: written in place, in its byte order.
    {
      kind: 'definition',
      local: 3,
      global: 20,
      bigEndian: true,
      fields: [
        [0, 4, 0x85],
        [1, 4, 0x85],
        [78, 4, 0x86],
      ],
    },
    {
      kind: 'data',
      local: 3,
      bytes: [
        ...bytesOf(4, semicirclesOf(48.8), true),
        ...bytesOf(4, semicirclesOf(9.2), true),
        ...bytesOf(4, 1, true),
      ],
    },
  ];

  it.each([14, 12] as const)(
    'developer fields, compressed timestamps and a big-endian record (%i-byte header)',
    (size) => {
      const file = rawFitFile(messages, size);
      expect(readFitPoints(file, 10).map((p) => p.height)).toEqual([null, null, 1 / 5 - 500]);
      const out = writeFitHeights(file, [400, 401, 402]);
      const raw = readFitMessages(out, { messageNumbers: [20] }); // both CRCs checked
      expect(raw.messages.map((m) => m.developerFields.map((f) => [...f.bytes]))).toEqual([
        [[0xaa, 0xbb], [0xa1]],
        [[0xcc, 0xdd], [0xc1]],
        [[1, 2], [3]],
        [],
      ]);
      expect(raw.messages.map((m) => m.timestamp ?? m.compressedTimestamp)).toEqual([
        T0,
        T0 + 1,
        T0 + 2,
        undefined,
      ]);
      const height = (i: number) => {
        const m = raw.messages[i];
        const f = m.fields.find((x) => x.fieldNumber === 78);
        if (!f) return undefined;
        const v = m.littleEndian ? Buffer.from(f.bytes).readUInt32LE() : Buffer.from(f.bytes).readUInt32BE();
        return v === 0xffffffff ? null : v / 5 - 500;
      };
      expect([0, 1, 2, 3].map(height)).toEqual([400, 401, null, 402]); // the third has no latitude: left alone
      expect(out.length).toBe(file.length + 6 + 3 * 6); // the little-endian definition and its 3 records grew
      // A 14-byte header's CRC is written anew (readFitMessages above checked it); a 12-byte one has none.
      expect(out[0]).toBe(size);
    },
  );

  it('writes a 14-byte header’s CRC anew when one of its bytes is 0', () => {
    // A header whose CRC has a zero byte: the profile version (bytes 2-3) is changed until it has one.
    const file = rawFitFile(messages, 14);
    for (let version = 0; file.readUInt16LE(12) & 0xff && file.readUInt16LE(12) >> 8; version++) {
      file.writeUInt16LE(version, 2);
      file.writeUInt16LE(FitEncoder.calculateCRC(file.subarray(0, 12)), 12);
    }
    file.writeUInt16LE(FitEncoder.calculateCRC(file.subarray(0, file.length - 2)), file.length - 2);
    expect(() => readFitMessages(file)).not.toThrow();
    const out = Buffer.from(writeFitHeights(file, [1, 2, 3]));
    expect(out.length).toBeGreaterThan(file.length); // the data size in the header changed
    expect(() => readFitMessages(out)).not.toThrow(); // both CRCs checked
  });

  it('leaves a 14-byte header’s CRC at 0 (not computed) as it was', () => {
    const file = rawFitFile(messages, 14);
    file.writeUInt16LE(0, 12);
    file.writeUInt16LE(FitEncoder.calculateCRC(file.subarray(0, file.length - 2)), file.length - 2);
    const out = Buffer.from(writeFitHeights(file, [1, 2, 3]));
    expect(out.readUInt16LE(12)).toBe(0);
    expect(() => readFitMessages(out)).not.toThrow();
  });
});

describe('the 4xx of a FIT file that cannot be written safely', () => {
  const file = fitFile(RIDE);

  it.each([
    ['a changed byte', Buffer.from(file).fill(0x55, 20, 21), /a CRC does not match: the file was damaged/],
    [
      'two files chained',
      Buffer.concat([file, file]),
      /the file is not as long as its header says: cut short, or several FIT files chained\)/,
    ],
    ['a cut file', file.subarray(0, file.length - 5), /^The FIT file cannot be read \(/],
  ])('%s', (_, bytes, reason) => {
    expect(() => readFitPoints(bytes, 10)).toThrow(InvalidRequestError);
    expect(() => readFitPoints(bytes, 10)).toThrow(reason);
    expect(() => writeFitHeights(bytes, [1, 2, 3])).toThrow(reason);
  });

  it.each([
    [0, [4, 0x86], "position_lat is 4 bytes of base type 0x86, not the profile's 4 bytes of 0x85"],
    [1, [4, 0x86], "position_long is 4 bytes of base type 0x86, not the profile's 4 bytes of 0x85"],
    [2, [2, 0x83], "altitude is 2 bytes of base type 0x83, not the profile's 2 bytes of 0x84"],
    [78, [4, 0x85], "enhanced_altitude is 4 bytes of base type 0x85, not the profile's 4 bytes of 0x86"],
    [2, [4, 0x86], "altitude is 4 bytes of base type 0x86, not the profile's 2 bytes of 0x84"],
  ])('refuses record field %i of another base type, naming it', (field, [size, type], message) => {
    const fields: [number, number, number][] = [
      [0, 4, 0x85],
      [1, 4, 0x85],
      [2, 2, 0x84],
      [78, 4, 0x86],
    ].map(([n, sz, t]) => (n === field ? [n, size, type] : [n, sz, t]));
    const odd = recordsFile(
      fields,
      fields.flatMap(([, sz]) => bytesOf(sz as 2 | 4, 1)),
    );
    const refusal = `The FIT file's record field ${message}: its heights cannot be written safely.`;
    expect(() => readFitPoints(odd, 10)).toThrow(refusal);
    expect(() => writeFitHeights(odd, [1])).toThrow(refusal);
  });

  it('refuses a file over the FIT size bound with a 413, and reads one of exactly that size', () => {
    const big = new Uint8Array(MAX_FIT_BYTES + 1);
    big.set(file);
    expect(() => writeFitHeights(big, [])).toThrow(PayloadTooLargeError);
    expect(() => writeFitHeights(big, [])).toThrow(
      `The FIT file is ${MAX_FIT_BYTES + 1} bytes; FIT files are read up to ${MAX_FIT_BYTES} bytes. Send a shorter activity.`,
    );
    // Exactly the bound: read, and refused for what it holds (zeros after the file), not for its size.
    expect(() => readFitPoints(big.subarray(0, MAX_FIT_BYTES), 10)).toThrow(/^The FIT file cannot be read/);
  });

  it('throws (a bug, not a client error) when given another number of heights than the file has points', () => {
    expect(() => writeFitHeights(file, [1, 2])).toThrow(new RangeError('2 heights for a file of 3 points.'));
    expect(() => writeFitHeights(file, [1, 2, 3, 4])).toThrow(
      new RangeError('4 heights for a file of 3 points.'),
    );
  });
});

describe('through fillFileHeights', () => {
  const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
  const options = { interpolation: 'nearest' as const, overwrite: true, absoluteAltitude: false };
  const limits = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };
  // 49.9,10.1 is in plane-point (1036 m nearest); 51,10.3 is outside it.
  const file = garminLike(
    [
      [49.9, 10.1],
      [51, 10.3],
    ],
    'both',
  );

  it('fills the points with data, leaves the others as the device wrote them, and names who answered', async () => {
    const decided: unknown[] = [];
    const filled = await fillFileHeights(
      file,
      registry.get('plane-point'),
      { ...options, decided: (report) => decided.push(report) },
      limits,
    );
    expect(decided).toEqual([filled.report]); // the counts before the file is written
    expect(filled).toMatchObject({ format: 'fit', gzip: false, encoding: 'utf-8', bom: false });
    expect(filled.report).toEqual({
      format: 'fit',
      coordinates: 2,
      filled: 1,
      nodata: 1,
      kept: 0,
      datasets: ['plane-point'],
    });
    expect(parsedRecords(filled.bytes).map((r) => r.enhanced_altitude)).toEqual([1036, 301]);
  });

  it("turns a placeholder 0 where the dataset has no height into FIT's invalid marker, as the text formats drop it", async () => {
    const encoder = new FitEncoder(DEVICE_HEADER);
    for (const [lat, lon, metres] of [
      [49.9, 10.1, 0],
      [51, 10.3, 0],
      [51, 10.3, 12],
    ]) {
      encoder.writeMessage(20, [
        { number: 0, size: 4, baseType: FitBaseType.Sint32, value: semicirclesOf(lat) },
        { number: 1, size: 4, baseType: FitBaseType.Sint32, value: semicirclesOf(lon) },
        { number: 2, size: 2, baseType: FitBaseType.Uint16, value: u16(metres) },
        { number: 78, size: 4, baseType: FitBaseType.Uint32, value: u16(metres) },
      ]);
    }
    const converted = Buffer.from(encoder.close());
    const filled = await fillFileHeights(converted, registry.get('plane-point'), options, limits);
    expect(filled.report).toMatchObject({ filled: 1, nodata: 2 });
    // 1036 m filled; the 0 without data is no height at all (not sea level); a real 12 m stays.
    expect(parsedRecords(filled.bytes).map((r) => [r.altitude, r.enhanced_altitude])).toEqual([
      [1036, 1036],
      [undefined, undefined],
      [12, 12],
    ]);
  });

  it('names no dataset when none answered, and keeps non-zero heights with overwrite=false', async () => {
    const outside = garminLike([[51, 10.3]], 'both');
    const none = await fillFileHeights(outside, registry.get('plane-point'), options, limits);
    expect(none.report).toMatchObject({ filled: 0, nodata: 1, datasets: [] });
    const kept = await fillFileHeights(
      file,
      registry.get('plane-point'),
      { ...options, overwrite: false },
      limits,
    );
    expect(kept.report).toMatchObject({ filled: 0, kept: 2 });
    expect(Buffer.from(kept.bytes)).toEqual(Buffer.from(file)); // nothing written: the same bytes, CRCs too
  });
});
