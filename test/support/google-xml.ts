/**
 * Reads Google's Elevation API XML the way a client does, with a strict XML parser (saxes: a malformed document
 * throws): the status, the error message, and per `<result>` its location, elevation and resolution (left out
 * where unknown; an empty element is an error). Anything else in the document (another element, text between elements) is an error, so
 * it fails the test.
 */
import { SaxesParser } from 'saxes';

export interface GoogleXmlResult {
  location: { lat: number; lng: number };
  elevation: number | null;
  /** Missing where the answer leaves it out (unknown), as Google does. */
  resolution?: number;
}

export interface GoogleXml {
  status: string;
  error_message?: string;
  results: GoogleXmlResult[];
}

const PATHS = new Set([
  'ElevationResponse',
  'ElevationResponse/status',
  'ElevationResponse/error_message',
  'ElevationResponse/result',
  'ElevationResponse/result/location',
  'ElevationResponse/result/location/lat',
  'ElevationResponse/result/location/lng',
  'ElevationResponse/result/elevation',
  'ElevationResponse/result/resolution',
]);

const LEAVES = new Set(
  [...PATHS].filter((path) => ![...PATHS].some((other) => other.startsWith(`${path}/`))),
);

export function readGoogleXml(xml: string): GoogleXml {
  const parser = new SaxesParser();
  const stack: string[] = [];
  let text = '';
  const answer: GoogleXml = { status: '', results: [] };
  let result: { lat?: number; lng?: number; elevation?: number | null; resolution?: number | null } = {};
  const number = (value: string): number | null => {
    if (value === '') return null;
    if (!/^-?\d+(\.\d+)?$/.test(value)) throw new Error(`not a plain decimal number: '${value}'`);
    return Number(value);
  };
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    const path = stack.join('/');
    if (!PATHS.has(path)) throw new Error(`unexpected element ${path}`);
    text = '';
  });
  parser.on('text', (t) => {
    // Text belongs in the leaves (status, lat, elevation…); between elements only layout whitespace.
    if (!LEAVES.has(stack.join('/')) && t.trim() !== '') throw new Error(`text '${t}' outside a leaf`);
    text += t;
  });
  parser.on('closetag', (tag) => {
    const path = stack.join('/');
    stack.pop();
    if (path === 'ElevationResponse/status') answer.status = text;
    else if (path === 'ElevationResponse/error_message') answer.error_message = text;
    else if (path === 'ElevationResponse/result/location/lat') result.lat = number(text) ?? NaN;
    else if (path === 'ElevationResponse/result/location/lng') result.lng = number(text) ?? NaN;
    else if (path === 'ElevationResponse/result/elevation') result.elevation = number(text);
    else if (path === 'ElevationResponse/result/resolution') result.resolution = number(text);
    else if (tag.name === 'result') {
      if (result.lat === undefined || result.lng === undefined) throw new Error('a result without location');
      if (result.elevation === undefined) throw new Error('a result without elevation');
      if (result.resolution === null)
        throw new Error('an empty <resolution/> (Google leaves an unknown one out)');
      answer.results.push({
        location: { lat: result.lat, lng: result.lng },
        elevation: result.elevation,
        ...(result.resolution === undefined ? {} : { resolution: result.resolution }),
      });
      result = {};
    }
    text = '';
  });
  parser.write(xml).close();
  return answer;
}
