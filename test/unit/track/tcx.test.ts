/**
 * The TCX reader: Trackpoints and CoursePoints with a Position are slots, and a course lap's Begin/EndPosition;
 * a height is written into their own <AltitudeMeters> (<Begin…>, <End…>), or a new one right after the position
 * (the schema's order), indented as the position is.
 */
import { InvalidRequestError } from '../../../layers/elevation';
import { readTcx } from '../../../layers/elevation/track/tcx';
import { applyEdits } from '../../../layers/elevation/track/text-edits';
import { readTrackLocations } from '../../../layers/elevation/track/track-text';
import { tryDetectTrackFormat } from '../../../layers/elevation/track/track-format';

const options = { maxCoordinates: 100, absoluteAltitude: false };
const NS = 'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2';
const TCX = (body: string, root = `xmlns="${NS}"`) =>
  `<TrainingCenterDatabase ${root}><Activities><Activity Sport="Biking"><Lap><Track>${body}</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
const pos = (lat: number | string, lon: number | string, p = '') =>
  `<${p}Position><${p}LatitudeDegrees>${lat}</${p}LatitudeDegrees><${p}LongitudeDegrees>${lon}</${p}LongitudeDegrees></${p}Position>`;
const filled = (text: string) => {
  const { slots } = readTcx(text, options);
  return applyEdits(
    text,
    slots.map((s) => s.write('123.4')),
  );
};

describe('readTcx', () => {
  it('fills a Strava export (spaces before its XML declaration), keeping the spaces: the file comes back as it came', () => {
    const text = `          <?xml version="1.0" encoding="UTF-8"?>\n${TCX(`<Trackpoint>${pos(50, 10)}</Trackpoint>`)}`;
    expect(filled(text)).toBe(
      `          <?xml version="1.0" encoding="UTF-8"?>\n${TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters>123.4</AltitudeMeters></Trackpoint>`)}`,
    );
  });

  it('reads an <AltitudeMeters> written as one CDATA section, and writes the new height inside it', () => {
    const text = TCX(
      `<Trackpoint>${pos(50, 10)}<AltitudeMeters><![CDATA[231]]></AltitudeMeters></Trackpoint>`,
    );
    expect(readTcx(text, options).slots.map((s) => s.height)).toEqual([231]);
    expect(filled(text)).toBe(
      TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters><![CDATA[123.4]]></AltitudeMeters></Trackpoint>`),
    );
  });

  it('still reads an empty, NaN, Infinity or other non-numeric <AltitudeMeters> as no height', () => {
    const point = (alt: string) =>
      `<Trackpoint>${pos(50, 10)}<AltitudeMeters>${alt}</AltitudeMeters></Trackpoint>`;
    const text = TCX(['', 'NaN', 'abc', 'Infinity'].map(point).join(''));
    expect(readTcx(text, options).slots.map((s) => s.height)).toEqual([null, null, null, null]);
  });

  it('refuses an <AltitudeMeters> of 1e400 (beyond the double range: GPSBabel reads it as inf), naming it and its line', () => {
    const text = TCX(`\n<Trackpoint>${pos(50, 10)}\n<AltitudeMeters>1e400</AltitudeMeters></Trackpoint>`);
    expect(() => readTcx(text, options)).toThrow(InvalidRequestError);
    expect(() => readTcx(text, options)).toThrow(
      'The <AltitudeMeters> at line 3 of <Trackpoint> at line 2 holds 1e400, a number beyond any height readers can hold (OGR and GPSBabel read it as infinity): write the height it should have, or leave it out.',
    );
    const lap = `<TrainingCenterDatabase xmlns="${NS}"><Courses><Course><Lap>${pos(50, 10).replace(/Position>/g, 'BeginPosition>')}<BeginAltitudeMeters>-1e400</BeginAltitudeMeters></Lap></Course></Courses></TrainingCenterDatabase>`;
    expect(() => readTcx(lap, options)).toThrow(
      /^The <BeginAltitudeMeters> at line 1 of <Lap> at line 1 holds -1e400, a number beyond/,
    );
  });

  it('removes a placeholder <AltitudeMeters> of 0 with its line where there is no data, and keeps a real height', () => {
    const text = TCX(
      `\n<Trackpoint>${pos(50, 10)}\n  <AltitudeMeters>0.0</AltitudeMeters>\n  <HeartRateBpm/>\n</Trackpoint>` +
        `<Trackpoint>${pos(51, 11)}<AltitudeMeters>231</AltitudeMeters></Trackpoint>`,
    );
    const slots = readTcx(text, options).slots;
    expect(slots.map((s) => s.height)).toEqual([0, 231]);
    expect(
      applyEdits(
        text,
        slots.flatMap((s) => s.clear() ?? []),
      ),
    ).toBe(
      TCX(
        `\n<Trackpoint>${pos(50, 10)}\n  <HeartRateBpm/>\n</Trackpoint>` +
          `<Trackpoint>${pos(51, 11)}<AltitudeMeters>231</AltitudeMeters></Trackpoint>`,
      ),
    );
  });

  it('reads every track and course point with a position, with its existing height', () => {
    const text =
      `<TrainingCenterDatabase xmlns="${NS}"><Activities><Activity><Lap><Track>` +
      `<Trackpoint><Time>t</Time>${pos(50, 10)}<AltitudeMeters>7.5</AltitudeMeters></Trackpoint>` +
      `<Trackpoint><Time>t</Time><DistanceMeters>3</DistanceMeters></Trackpoint>` +
      `<Trackpoint><Time>t</Time>${pos(51, 11)}<AltitudeMeters> </AltitudeMeters></Trackpoint>` +
      `</Track></Lap></Activity></Activities><Courses><Course><Track><Trackpoint>${pos(52, 12)}</Trackpoint></Track>` +
      `<CoursePoint><Name>A</Name>${pos(53, 13)}<AltitudeMeters>0</AltitudeMeters><PointType>Generic</PointType></CoursePoint>` +
      `</Course></Courses></TrainingCenterDatabase>`;
    expect(readTcx(text, options).slots.map((s) => [s.location.lat, s.location.lon, s.height])).toEqual([
      [50, 10, 7.5],
      [51, 11, null],
      [52, 12, null],
      [53, 13, 0],
    ]);
  });

  it('writes into <AltitudeMeters>, or inserts it right after </Position> with the Position’s indentation', () => {
    expect(filled(TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters>0</AltitudeMeters></Trackpoint>`))).toBe(
      TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters>123.4</AltitudeMeters></Trackpoint>`),
    );
    expect(
      filled(
        TCX(
          `<Trackpoint>\n  <Time>t</Time>\n  ${pos(50, 10)}\n  <DistanceMeters>1</DistanceMeters>\n</Trackpoint>`,
        ),
      ),
    ).toBe(
      TCX(
        `<Trackpoint>\n  <Time>t</Time>\n  ${pos(50, 10)}\n  <AltitudeMeters>123.4</AltitudeMeters>\n  <DistanceMeters>1</DistanceMeters>\n</Trackpoint>`,
      ),
    );
    expect(filled(TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters/></Trackpoint>`))).toBe(
      TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters>123.4</AltitudeMeters></Trackpoint>`),
    );
  });

  it('keeps a namespace prefix, and reads TCX v1 and files without a namespace', () => {
    const prefixed = `<t:TrainingCenterDatabase xmlns:t="${NS}"><t:Courses><t:Course><t:Track><t:Trackpoint>${pos(50, 10, 't:')}</t:Trackpoint></t:Track></t:Course></t:Courses></t:TrainingCenterDatabase>`;
    expect(filled(prefixed)).toBe(
      prefixed.replace('</t:Position>', '</t:Position><t:AltitudeMeters>123.4</t:AltitudeMeters>'),
    );
    const v1 = TCX(`<Trackpoint>${pos(50, 10)}</Trackpoint>`, `xmlns="${NS.replace('v2', 'v1')}"`);
    const bare = TCX(`<Trackpoint>${pos(50, 10)}</Trackpoint>`, '');
    expect(readTcx(v1, options).slots).toHaveLength(1);
    expect(readTcx(bare, options).slots).toHaveLength(1);
  });

  it.each([
    ['with a trailing slash, as some apps write it', `${NS}/`],
    ['over https', NS.replace('http:', 'https:')],
    ['of another vendor', 'urn:some-app:tcx'],
  ])(
    'reads the points of a <TrainingCenterDatabase> whose default namespace is one %s, as GPSBabel does',
    (_what, namespace) => {
      const text = TCX(
        `<Trackpoint>${pos(50, 10)}<AltitudeMeters>300</AltitudeMeters></Trackpoint><Trackpoint>${pos(51, 11)}</Trackpoint>`,
        `xmlns="${namespace}"`,
      );
      expect(readTcx(text, options).slots.map((s) => [s.location.lat, s.height])).toEqual([
        [50, 300],
        [51, null],
      ]);
      expect(filled(text)).toContain(
        `<Trackpoint>${pos(51, 11)}<AltitudeMeters>123.4</AltitudeMeters></Trackpoint>`,
      );
    },
  );

  it('still takes no point or height of an extension namespace under a root of an unusual one', () => {
    const ns3 = 'http://www.garmin.com/xmlschemas/ActivityExtension/v2';
    const text = TCX(
      `<Trackpoint>${pos(50, 10)}<ns3:AltitudeMeters>9</ns3:AltitudeMeters></Trackpoint>` +
        `<ns3:Trackpoint>${pos(51, 11, 'ns3:')}</ns3:Trackpoint>`,
      `xmlns="${NS}/" xmlns:ns3="${ns3}"`,
    );
    expect(readTcx(text, options).slots.map((s) => [s.location.lat, s.height])).toEqual([[50, null]]);
  });

  it('takes only a point’s own AltitudeMeters, and no point or position of another namespace', () => {
    const text = TCX(
      `<Trackpoint>${pos(50, 10)}<Extensions><AltitudeMeters>5</AltitudeMeters></Extensions></Trackpoint>` +
        `<Trackpoint xmlns="urn:other">${pos(51, 11)}</Trackpoint>` +
        `<Trackpoint><Position xmlns="urn:other"><LatitudeDegrees>52</LatitudeDegrees><LongitudeDegrees>12</LongitudeDegrees></Position></Trackpoint>`,
    );
    const { slots } = readTcx(text, options);
    expect(slots.map((s) => [s.location.lat, s.height])).toEqual([[50, null]]);
    expect(filled(text)).toBe(
      text.replace(
        '</Position><Extensions>',
        '</Position><AltitudeMeters>123.4</AltitudeMeters><Extensions>',
      ),
    );
  });

  it('reads the point’s own Position only: not degrees, positions or heights nested elsewhere in it', () => {
    const text = TCX(
      `<Trackpoint>${pos(50, 10)}` +
        '<x:AltitudeMeters xmlns:x="urn:other">9</x:AltitudeMeters>' +
        `<Extensions><LatitudeDegrees>1</LatitudeDegrees>${pos(2, 3)}<LongitudeDegrees>4</LongitudeDegrees></Extensions>` +
        '</Trackpoint>',
    );
    const { slots } = readTcx(text, options);
    expect(slots.map((s) => [s.location.lat, s.location.lon, s.height])).toEqual([[50, 10, null]]);
    expect(filled(text)).toBe(
      text.replace(`${pos(50, 10)}<x:`, `${pos(50, 10)}<AltitudeMeters>123.4</AltitudeMeters><x:`),
    );
  });

  it("fills a course lap's begin and end heights, after each position, as the schema orders them", () => {
    const lap = (body: string, p = '') =>
      `<${p}TrainingCenterDatabase xmlns${p ? `:${p.slice(0, -1)}` : ''}="${NS}"><${p}Courses><${p}Course><${p}Lap>` +
      `<${p}TotalTimeSeconds>1</${p}TotalTimeSeconds><${p}DistanceMeters>1</${p}DistanceMeters>${body}` +
      `<${p}Intensity>Active</${p}Intensity></${p}Lap></${p}Course></${p}Courses></${p}TrainingCenterDatabase>`;
    const begin = (p = '') => pos(50, 10, p).replace(/Position>/g, 'BeginPosition>');
    const end = (p = '') => pos(51, 11, p).replace(/Position>/g, 'EndPosition>');
    const text = lap(`\n  ${begin()}\n  ${end()}<EndAltitudeMeters>7</EndAltitudeMeters>`);
    const { slots } = readTcx(text, options);
    expect(slots.map((s) => [s.location.lat, s.location.lon, s.height, s.onPath])).toEqual([
      [50, 10, null, false],
      [51, 11, 7, false],
    ]);
    expect(filled(text)).toBe(
      lap(
        `\n  ${begin()}\n  <BeginAltitudeMeters>123.4</BeginAltitudeMeters>\n  ${end()}<EndAltitudeMeters>123.4</EndAltitudeMeters>`,
      ),
    );
    const prefixed = lap(`${begin('t:')}${end('t:')}`, 't:');
    expect(filled(prefixed)).toBe(
      lap(
        `${begin('t:')}<t:BeginAltitudeMeters>123.4</t:BeginAltitudeMeters>` +
          `${end('t:')}<t:EndAltitudeMeters>123.4</t:EndAltitudeMeters>`,
        't:',
      ),
    );
  });

  it("reads no lap but a course's: an activity lap's positions and heights are no slot", () => {
    const begin = pos(1, 2).replace(/Position>/g, 'BeginPosition>');
    const text =
      `<TrainingCenterDatabase xmlns="${NS}"><Activities><Activity><Lap>${begin}<BeginAltitudeMeters>3</BeginAltitudeMeters></Lap>` +
      `<Lap><Track><Trackpoint>${pos(50, 10)}</Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
    expect(readTcx(text, options).slots.map((s) => [s.location.lat, s.height, s.onPath])).toEqual([
      [50, null, true],
    ]);
    const course = `<TrainingCenterDatabase xmlns="${NS}"><Courses><Course><Lap><AltitudeMeters>5</AltitudeMeters>${pos(1, 2)}</Lap></Course></Courses></TrainingCenterDatabase>`;
    expect(readTcx(course, options).slots).toEqual([]);
  });

  it('puts track points on the path and course points off it', () => {
    const text =
      `<TrainingCenterDatabase xmlns="${NS}"><Courses><Course><Track><Trackpoint>${pos(50, 10)}</Trackpoint></Track>` +
      `<CoursePoint>${pos(51, 11)}</CoursePoint></Course></Courses></TrainingCenterDatabase>`;
    expect(readTcx(text, options).slots.map((s) => s.onPath)).toEqual([true, false]);
  });

  it.each([
    [
      'a lap end without latitude',
      `<TrainingCenterDatabase xmlns="${NS}"><Courses><Course><Lap><EndPosition><LongitudeDegrees>1</LongitudeDegrees></EndPosition></Lap></Course></Courses></TrainingCenterDatabase>`,
      '<Lap> at line 1 has no <LatitudeDegrees> in its <EndPosition>',
    ],
    [
      'markup in a lap height',
      `<TrainingCenterDatabase xmlns="${NS}"><Courses><Course><Lap>${pos(50, 10).replace(/Position>/g, 'BeginPosition>')}<BeginAltitudeMeters>1<!--x--></BeginAltitudeMeters></Lap></Course></Courses></TrainingCenterDatabase>`,
      '<BeginAltitudeMeters> of <Lap> at line 1 contains markup',
    ],
    [
      'a point with two positions (they would share its one height)',
      TCX(`<Trackpoint>${pos(50, 10)}${pos(51, 11)}<AltitudeMeters>0</AltitudeMeters></Trackpoint>`),
      '<Trackpoint> at line 1 has more than one <Position>.',
    ],
    [
      'a course lap with two begin positions',
      `<TrainingCenterDatabase xmlns="${NS}"><Courses><Course>\n<Lap>${pos(50, 10)
        .replace(/Position>/g, 'BeginPosition>')
        .repeat(2)}</Lap></Course></Courses></TrainingCenterDatabase>`,
      '<Lap> at line 2 has more than one <BeginPosition>.',
    ],
    [
      'a point with two heights (readers take the first: filling the second would leave them the old one)',
      TCX(
        `<Trackpoint>${pos(50, 10)}<AltitudeMeters>0</AltitudeMeters><AltitudeMeters>9</AltitudeMeters></Trackpoint>`,
      ),
      '<Trackpoint> at line 1 has more than one <AltitudeMeters>.',
    ],
    [
      'a position with two latitudes',
      TCX(
        '<Trackpoint><Position><LatitudeDegrees>50</LatitudeDegrees><LatitudeDegrees>51</LatitudeDegrees>' +
          '<LongitudeDegrees>10</LongitudeDegrees></Position></Trackpoint>',
      ),
      '<Position> at line 1 has more than one <LatitudeDegrees>.',
    ],
  ])('refuses %s, naming the element', (_, text, message) => {
    expect(() => readTcx(text, options)).toThrow(InvalidRequestError);
    expect(() => readTcx(text, options)).toThrow(message);
  });

  it.each([
    [
      'a root that is not <TrainingCenterDatabase>',
      '<gpx/>',
      /its root element is <gpx>, not <TrainingCenterDatabase>/,
    ],
    [
      'a position without longitude',
      TCX('<Trackpoint><Position><LatitudeDegrees>50</LatitudeDegrees></Position></Trackpoint>'),
      /<Trackpoint> at line 1 has no <LongitudeDegrees> in its <Position>/,
    ],
    [
      'a bad latitude',
      TCX(`\n<Trackpoint>${pos('north', 10)}</Trackpoint>`),
      /<Trackpoint> at line 2 has an invalid <LatitudeDegrees> 'north'/,
    ],
    [
      'a hexadecimal longitude',
      TCX(`<Trackpoint>${pos(50, '0x9')}</Trackpoint>`),
      /has an invalid <LongitudeDegrees> '0x9' in its <Position>/,
    ],
    [
      'an empty latitude',
      TCX(`<Trackpoint>${pos('', 10)}</Trackpoint>`),
      /has an invalid <LatitudeDegrees> '' in its <Position>/,
    ],
    [
      'a blank longitude',
      TCX(`<Trackpoint>${pos(50, ' ')}</Trackpoint>`),
      /has an invalid <LongitudeDegrees> '' in its <Position>/,
    ],
    ['a latitude out of range', TCX(`<Trackpoint>${pos(91, 10)}</Trackpoint>`), /Invalid latitude 91/],
    [
      'markup in AltitudeMeters',
      TCX(`<Trackpoint>${pos(50, 10)}<AltitudeMeters>1<!--x--></AltitudeMeters></Trackpoint>`),
      /<AltitudeMeters> of <Trackpoint> at line 1 contains markup/,
    ],
  ])('refuses %s with a 400 saying what', (_what, text, message) => {
    expect(() => readTcx(text, options)).toThrow(InvalidRequestError);
    expect(() => readTcx(text, options)).toThrow(message);
  });

  it('is told from its root element, and gives a profile its positions in document order', () => {
    const text = TCX(`<Trackpoint>${pos(50, 10)}</Trackpoint><Trackpoint>${pos(50.1, 10.2)}</Trackpoint>`);
    const bytes = new TextEncoder().encode(`<?xml version="1.0"?>\n${text}`);
    expect(tryDetectTrackFormat(bytes)).toBe('tcx');
    expect(readTrackLocations(bytes, { maxCoordinates: 10, maxUnzippedBytes: 1e6 })).toEqual({
      format: 'tcx',
      locations: [
        { lat: 50, lon: 10 },
        { lat: 50.1, lon: 10.2 },
      ],
    });
  });

  it('stops at the coordinate limit', () => {
    const text = TCX(`<Trackpoint>${pos(50, 10)}</Trackpoint>`.repeat(3));
    expect(() => readTcx(text, { maxCoordinates: 2, absoluteAltitude: false })).toThrow(
      /more than 2 coordinates/,
    );
  });
});
