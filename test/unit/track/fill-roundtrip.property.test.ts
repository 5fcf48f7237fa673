/**
 * Property: a height written into a track file (GPX, KML, TCX) is the height read back from it. Documents are generated in the
 * shapes exporters write (self-closed points and heights, empty, zero and padded heights, names, comments,
 * extensions holding their own <ele>, indentation, namespace prefixes); each slot gets a height, and reading the
 * result again must find the same points, each with exactly that height. Written as a test after `<ele/>` came
 * back as `<ele/>450`: counted as filled, while the file still said no height.
 */
import fc from 'fast-check';
import { readGpx } from '../../../layers/elevation/track/gpx';
import { readKml } from '../../../layers/elevation/track/kml';
import { readTcx } from '../../../layers/elevation/track/tcx';
import type { ParsedTrack, TrackReadOptions } from '../../../layers/elevation/track/parsed-track';
import { applyEdits } from '../../../layers/elevation/track/text-edits';

const OPTIONS: TrackReadOptions = { maxCoordinates: 1000, absoluteAltitude: false };
const RUNS = 300;

const lat = fc.integer({ min: -9000, max: 9000 }).map((n) => n / 100);
const lon = fc.integer({ min: -18000, max: 18000 }).map((n) => n / 100);
const space = fc.constantFrom('', ' ', '\n  ', '\n\t\t');

/** Fills every slot with its own height (100 + its index, so a height landing on another point is caught). */
function roundTrip(text: string, read: (t: string, o: TrackReadOptions) => ParsedTrack) {
  const before = read(text, OPTIONS).slots;
  const filled = applyEdits(
    text,
    before.map((slot, i) => slot.write(String(100 + i))),
  );
  const after = read(filled, OPTIONS).slots;
  return { before, after, filled };
}

describe('filled heights read back', () => {
  it('GPX: every point has the height written for it, whatever shape its <ele> had', () => {
    const ele = fc.constantFrom(
      null,
      '<P:ele/>',
      '<P:ele />',
      '<P:ele></P:ele>',
      '<P:ele>0</P:ele>',
      '<P:ele> 12.5 </P:ele>',
    );
    const other = fc.constantFrom(
      '<P:name>A</P:name>',
      '<P:time>2026-01-01T00:00:00Z</P:time>',
      '<!-- c -->',
      '<P:extensions><P:ele>5</P:ele></P:extensions>',
      '<x:ele xmlns:x="urn:other">9</x:ele>',
    );
    const point = fc.record({
      tag: fc.constantFrom('wpt', 'rtept', 'trkpt'),
      lat,
      lon,
      selfClosed: fc.boolean(),
      ele,
      before: fc.array(other, { maxLength: 2 }),
      after: fc.array(other, { maxLength: 2 }),
      space,
    });
    const doc = fc.record({ prefix: fc.constantFrom('', 'g'), points: fc.array(point, { maxLength: 6 }) });
    fc.assert(
      fc.property(doc, ({ prefix, points }) => {
        const P = prefix ? `${prefix}:` : '';
        const body = points
          .map((p) => {
            const open = `<${P}${p.tag} lat="${p.lat}" lon="${p.lon}"`;
            if (p.selfClosed) return `${open}/>`;
            const children = [...p.before, ...(p.ele ? [p.ele] : []), ...p.after];
            return `${open}>${children.map((c) => p.space + c).join('')}${p.space}</${P}${p.tag}>`;
          })
          .join('')
          .replace(/P:/g, P);
        const ns = `xmlns${prefix ? `:${prefix}` : ''}="http://www.topografix.com/GPX/1/1"`;
        const text = `<?xml version="1.0"?><${P}gpx version="1.1" ${ns}>${body}</${P}gpx>`;
        const { before, after } = roundTrip(text, readGpx);
        expect(before).toHaveLength(points.length);
        expect(after.map((s) => s.location)).toEqual(before.map((s) => s.location));
        expect(after.map((s) => s.height)).toEqual(before.map((_, i) => 100 + i));
      }),
      { numRuns: RUNS },
    );
  });

  it('TCX: every point and course lap end with a position has the height written for it, whatever shape its height had', () => {
    const altitude = fc.constantFrom(
      null,
      '<P:AltitudeMeters/>',
      '<P:AltitudeMeters></P:AltitudeMeters>',
      '<P:AltitudeMeters>0.0</P:AltitudeMeters>',
      '<P:AltitudeMeters> 12.5 </P:AltitudeMeters>',
    );
    const after = fc.constantFrom(
      '<P:DistanceMeters>1.5</P:DistanceMeters>',
      '<P:HeartRateBpm><P:Value>120</P:Value></P:HeartRateBpm>',
      '<P:Extensions><P:AltitudeMeters>5</P:AltitudeMeters></P:Extensions>',
      '<!-- c -->',
    );
    const point = fc.record({
      tag: fc.constantFrom('Trackpoint', 'CoursePoint'),
      position: fc.option(fc.tuple(lat, lon)),
      altitude,
      after: fc.array(after, { maxLength: 2 }),
      space,
    });
    // A course lap (CourseLap_t): a begin and an end position, each with its own height in any of those shapes.
    const end = fc.record({ position: fc.option(fc.tuple(lat, lon)), altitude, space });
    const lap = fc.record({ begin: end, end });
    const doc = fc.record({
      prefix: fc.constantFrom('', 't'),
      laps: fc.array(lap, { maxLength: 2 }),
      points: fc.array(point, { maxLength: 6 }),
    });
    fc.assert(
      fc.property(doc, ({ prefix, laps, points }) => {
        const P = prefix ? `${prefix}:` : '';
        const lapEnd = (which: 'Begin' | 'End', e: (typeof laps)[number]['begin']) => {
          const children: string[] = [];
          if (e.position) {
            const [la, lo] = e.position;
            children.push(
              `<P:${which}Position>${e.space}<P:LatitudeDegrees>${la}</P:LatitudeDegrees><P:LongitudeDegrees>${lo}</P:LongitudeDegrees></P:${which}Position>`,
            );
          }
          if (e.altitude) children.push(e.altitude.replace(/AltitudeMeters/g, `${which}AltitudeMeters`));
          return children.map((c) => e.space + c).join('');
        };
        const lapsText = laps
          .map(
            (l) =>
              '<P:Lap><P:TotalTimeSeconds>1</P:TotalTimeSeconds><P:DistanceMeters>1</P:DistanceMeters>' +
              `${lapEnd('Begin', l.begin)}${lapEnd('End', l.end)}<P:Intensity>Active</P:Intensity></P:Lap>`,
          )
          .join('')
          .replace(/P:/g, P);
        const body = points
          .map((p) => {
            const children = ['<P:Time>2026-01-01T00:00:00Z</P:Time>'];
            if (p.position) {
              const [la, lo] = p.position;
              children.push(
                `<P:Position>${p.space}<P:LatitudeDegrees>${la}</P:LatitudeDegrees><P:LongitudeDegrees>${lo}</P:LongitudeDegrees></P:Position>`,
              );
            }
            if (p.altitude) children.push(p.altitude);
            children.push(...p.after);
            return `<P:${p.tag}>${children.map((c) => p.space + c).join('')}</P:${p.tag}>`;
          })
          .join('')
          .replace(/P:/g, P);
        const ns = `xmlns${prefix ? `:${prefix}` : ''}="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"`;
        const text = `<${P}TrainingCenterDatabase ${ns}><${P}Courses><${P}Course>${lapsText}<${P}Track>${body}</${P}Track></${P}Course></${P}Courses></${P}TrainingCenterDatabase>`;
        const { before, after: read } = roundTrip(text, readTcx);
        const lapEnds = laps.flatMap((l) => [l.begin, l.end]).filter((e) => e.position).length;
        expect(before).toHaveLength(lapEnds + points.filter((p) => p.position).length);
        expect(read.map((s) => s.location)).toEqual(before.map((s) => s.location));
        expect(read.map((s) => s.height)).toEqual(before.map((_, i) => 100 + i));
      }),
      { numRuns: RUNS },
    );
  });

  it('KML: every coordinate tuple and gx:coord has the height written for it', () => {
    const tuple = fc.record({ lat, lon, alt: fc.constantFrom(null, '0', '12.5', '-3') });
    const geometry = fc.oneof(
      fc.record({
        kind: fc.constantFrom('Point', 'LineString'),
        tuples: fc.array(tuple, { minLength: 1, maxLength: 4 }),
        separator: fc.constantFrom(' ', '\n  ', '\t', ' \n '),
        padding: space,
      }),
      fc.record({ kind: fc.constant('gx:Track'), tuples: fc.array(tuple, { maxLength: 3 }) }),
    );
    const doc = fc.array(geometry, { maxLength: 5 });
    fc.assert(
      fc.property(doc, (geometries) => {
        const body = geometries
          .map((g) => {
            if (g.kind === 'gx:Track') {
              const coords = g.tuples.map(
                (t) => `<gx:coord>${t.lon} ${t.lat}${t.alt === null ? '' : ` ${t.alt}`}</gx:coord>`,
              );
              return `<Placemark><gx:Track>${coords.join('')}</gx:Track></Placemark>`;
            }
            const { separator, padding } = g as { separator: string; padding: string };
            const tuples = g.tuples.map((t) => `${t.lon},${t.lat}${t.alt === null ? '' : `,${t.alt}`}`);
            return `<Placemark><${g.kind}><coordinates>${padding}${tuples.join(separator)}${padding}</coordinates></${g.kind}></Placemark>`;
          })
          .join('');
        const text = `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>${body}</Document></kml>`;
        const { before, after } = roundTrip(text, readKml);
        expect(before).toHaveLength(geometries.reduce((n, g) => n + g.tuples.length, 0));
        expect(after.map((s) => s.location)).toEqual(before.map((s) => s.location));
        expect(after.map((s) => s.height)).toEqual(before.map((_, i) => 100 + i));
      }),
      { numRuns: RUNS },
    );
  });
});
