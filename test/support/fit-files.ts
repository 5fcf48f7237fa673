/** FIT files for tests, written with fit-file-parser's encoder: a file_id message, then one record per point. */
import { FitBaseType, FitEncoder } from 'fit-file-parser';

const START = new Date('2026-11-30T07:00:00Z');
const semicircles = (degrees: number) => Math.round((degrees * 2 ** 31) / 180);

/** Points as [lat, lon], or null for a record without a position (before a fix). */
export function fitFile(points: ([number, number] | null)[]): Buffer {
  const encoder = new FitEncoder();
  encoder.writeMessage(0, [
    { number: 0, size: 1, baseType: FitBaseType.Enum, value: 4 }, // type: activity
    { number: 1, size: 2, baseType: FitBaseType.Uint16, value: 1 }, // manufacturer: garmin
    { number: 4, size: 4, baseType: FitBaseType.Uint32, value: FitEncoder.toFitTimestamp(START) },
  ]);
  points.forEach((point, i) => {
    const time = {
      number: 253,
      size: 4,
      baseType: FitBaseType.Uint32,
      value: FitEncoder.toFitTimestamp(new Date(START.getTime() + i * 1000)),
    };
    encoder.writeMessage(
      20,
      point === null
        ? [time]
        : [
            time,
            { number: 0, size: 4, baseType: FitBaseType.Sint32, value: semicircles(point[0]) },
            { number: 1, size: 4, baseType: FitBaseType.Sint32, value: semicircles(point[1]) },
          ],
    );
  });
  return Buffer.from(encoder.close());
}
