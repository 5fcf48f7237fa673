/**
 * Google's Elevation API answer as XML (`/maps/api/elevation/xml`), the form spreadsheets and older scripts read
 * (Excel's `FILTERXML(WEBSERVICE(url), "//elevation")`, VBA's MSXML): an `<ElevationResponse>` with `<status>`
 * and a `<result>` per point (`<location><lat/><lng/></location><elevation/><resolution/>`, the resolution left
 * out where it is unknown, as in JSON), or `<status>` and `<error_message>` for an error and for
 * `DATA_NOT_AVAILABLE`, as Google writes them. Every `<result>` has a height (google-answer.ts), so the n-th
 * `<elevation>` is always the n-th location's.
 */
import type { GoogleAnswer } from './google-answer';

/** Google's statuses this API answers with. */
export type GoogleStatus = GoogleAnswer['status'] | 'INVALID_REQUEST' | 'UNKNOWN_ERROR';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * @example
 * ```ts
 * const xml = googleAnswerXml({
 *   status: 'OK',
 *   results: [{ elevation: 456.889, location: { lat: 48.742275, lng: 9.101177 }, resolution: 92.671 }],
 * });
 * assert.match(xml, /<result>\n  <location>\n   <lat>48.742275<\/lat>\n   <lng>9.101177<\/lng>\n  <\/location>\n  <elevation>456.889<\/elevation>/);
 * ```
 */
export function googleAnswerXml(answer: GoogleAnswer): string {
  if (answer.status !== 'OK') return googleErrorXml(answer.status, answer.error_message);
  const results = answer.results.map(
    (result) =>
      ' <result>\n' +
      '  <location>\n' +
      `   <lat>${plainNumber(result.location.lat)}</lat>\n` +
      `   <lng>${plainNumber(result.location.lng)}</lng>\n` +
      '  </location>\n' +
      `  <elevation>${plainNumber(result.elevation)}</elevation>\n` +
      (result.resolution === undefined
        ? ''
        : `  <resolution>${plainNumber(result.resolution)}</resolution>\n`) +
      ' </result>\n',
  );
  return `${DECLARATION}<ElevationResponse>\n <status>${answer.status}</status>\n${results.join('')}</ElevationResponse>\n`;
}

/**
 * @example
 * ```ts
 * assert.equal(
 *   googleErrorXml('INVALID_REQUEST', "Invalid location 'a<b'"),
 *   '<?xml version="1.0" encoding="UTF-8"?>\n<ElevationResponse>\n <status>INVALID_REQUEST</status>\n' +
 *     " <error_message>Invalid location 'a&lt;b'</error_message>\n</ElevationResponse>\n",
 * );
 * ```
 */
export function googleErrorXml(status: GoogleStatus, message: string): string {
  return (
    `${DECLARATION}<ElevationResponse>\n <status>${status}</status>\n` +
    ` <error_message>${xmlText(message)}</error_message>\n</ElevationResponse>\n`
  );
}

/**
 * A number as decimal digits, never in exponent form: JavaScript writes 1e-7 for 0.0000001, which XML Schema's
 * `xs:decimal` does not allow and Google never writes, so a client's parser need not expect it.
 */
function plainNumber(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, rest = '', exponentText] = match;
  const digits = lead + rest;
  const exponent = Number(exponentText);
  // The same digits, the point moved: JavaScript's shortest round-trip digits, none invented.
  return exponent < 0
    ? `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
    : `${sign}${digits}${'0'.repeat(Math.max(0, exponent + 1 - digits.length))}`;
}

/**
 * Text escaped for an XML element: `&` and `<` (and `>`, for `]]>`) as entities, and the characters XML 1.0
 * cannot hold at all (C0 controls other than tab, LF and CR; unpaired surrogates; U+FFFE, U+FFFF), which a
 * client's location may carry into an error message (`%01` in a URL), as U+FFFD, so the document always parses.
 */
function xmlText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(
      // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are the point
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    );
}
