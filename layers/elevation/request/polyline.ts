/** Google's encoded polyline format (precision 1e-5), as the Elevation API and OpenTopoData accept it. */

/** Decoded [lat, lon] pairs, or null when the text is not a well-formed polyline. */
export function tryDecodePolyline(encoded: string): [number, number][] | null {
  const points: [number, number][] = [];
  let index = 0;
  let lat = 0;
  let lon = 0;
  while (index < encoded.length) {
    const dLat = nextValue(encoded, index);
    if (!dLat) return null;
    const dLon = nextValue(encoded, dLat.next);
    if (!dLon) return null;
    index = dLon.next;
    lat += dLat.value;
    lon += dLon.value;
    points.push([lat / 1e5, lon / 1e5]);
  }
  return points.length > 0 ? points : null;
}

function nextValue(text: string, start: number): { value: number; next: number } | null {
  let result = 0;
  let shift = 0;
  let index = start;
  for (;;) {
    if (index >= text.length || shift > 30) return null;
    const byte = text.charCodeAt(index++) - 63;
    if (byte < 0 || byte > 63) return null;
    result |= (byte & 0x1f) << shift;
    shift += 5;
    if (byte < 0x20) break;
  }
  return { value: result & 1 ? ~(result >> 1) : result >> 1, next: index };
}

export function encodePolyline(points: readonly [number, number][]): string {
  let out = '';
  let prevLat = 0;
  let prevLon = 0;
  for (const [lat, lon] of points) {
    const iLat = Math.round(lat * 1e5);
    const iLon = Math.round(lon * 1e5);
    out += encodeValue(iLat - prevLat) + encodeValue(iLon - prevLon);
    prevLat = iLat;
    prevLon = iLon;
  }
  return out;
}

function encodeValue(value: number): string {
  let v = value < 0 ? ~(value << 1) : value << 1;
  let out = '';
  while (v >= 0x20) {
    out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
    v >>= 5;
  }
  return out + String.fromCharCode(v + 63);
}
