/** Google's Elevation API XML: its exact layout, DATA_NOT_AVAILABLE as an error, plain numbers, always well-formed. */
import { googleAnswerXml, googleErrorXml } from '../../../layers/elevation';
import { readGoogleXml } from '../../support/google-xml';

const POINT = { elevation: 456.889, location: { lat: 48.742275, lng: 9.101177 }, resolution: 92.671 };

describe('googleAnswerXml', () => {
  it("writes Google's document: declaration, status, one result per point, one-space indents", () => {
    expect(googleAnswerXml({ status: 'OK', results: [POINT] })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<ElevationResponse>',
        ' <status>OK</status>',
        ' <result>',
        '  <location>',
        '   <lat>48.742275</lat>',
        '   <lng>9.101177</lng>',
        '  </location>',
        '  <elevation>456.889</elevation>',
        '  <resolution>92.671</resolution>',
        ' </result>',
        '</ElevationResponse>',
        '',
      ].join('\n'),
    );
  });

  it('leaves resolution out where it is unknown, as Google does (the height is always there)', () => {
    const { resolution: _, ...unknown } = POINT;
    const xml = googleAnswerXml({ status: 'OK', results: [POINT, unknown] });
    expect(xml).toContain('  <elevation>456.889</elevation>\n </result>\n');
    expect(readGoogleXml(xml)).toEqual({ status: 'OK', results: [POINT, unknown] });
  });

  it('answers DATA_NOT_AVAILABLE with its message and no results, as an error is written', () => {
    const message = "No elevation data in dataset 'sample' at 1 of 1 locations: position 1 (10,10). <&>";
    const xml = googleAnswerXml({ error_message: message, results: [], status: 'DATA_NOT_AVAILABLE' });
    expect(xml).toBe(googleErrorXml('DATA_NOT_AVAILABLE', message));
    expect(readGoogleXml(xml)).toEqual({ status: 'DATA_NOT_AVAILABLE', error_message: message, results: [] });
  });

  it.each([
    [1e-7, '0.0000001'],
    [-1.5e-7, '-0.00000015'],
    [1.2345678e-7, '0.00000012345678'],
    [5e-324, `0.${'0'.repeat(323)}5`],
    [0.000001, '0.000001'],
    [1e21, '1000000000000000000000'],
    [-1.25e22, '-12500000000000000000000'],
    [123.456, '123.456'],
    [-0, '0'],
  ])('writes %p as the plain decimal %s, never in exponent form', (value, text) => {
    const xml = googleAnswerXml({
      status: 'OK',
      results: [{ elevation: value, location: { lat: value, lng: 1 }, resolution: value }],
    });
    expect(xml).toContain(`<lat>${text}</lat>`);
    expect(xml).toContain(`<elevation>${text}</elevation>`);
    expect(xml).toContain(`<resolution>${text}</resolution>`);
    expect(readGoogleXml(xml).results[0].elevation).toBe(Object.is(value, -0) ? 0 : value);
  });
});

describe('googleErrorXml', () => {
  it("writes Google's error document: status, then error_message", () => {
    expect(googleErrorXml('UNKNOWN_ERROR', 'The elevation data store is unavailable. Please retry.')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<ElevationResponse>\n <status>UNKNOWN_ERROR</status>\n' +
        ' <error_message>The elevation data store is unavailable. Please retry.</error_message>\n' +
        '</ElevationResponse>\n',
    );
  });

  it.each([
    ['markup', "Invalid location '<a>&amp;]]>'", "Invalid location '<a>&amp;]]>'"],
    [
      'C0 controls',
      'a\u0000b\u0001c\u0008d\u000be\u000cf\u001fg',
      'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg',
    ],
    ['tab and LF (allowed)', 'a\tb\nc', 'a\tb\nc'],
    ['U+FFFE and U+FFFF', 'a\ufffeb\uffffc', 'a\ufffdb\ufffdc'],
    ['unpaired surrogates', 'a\ud800b\udc00c\udbff', 'a\ufffdb\ufffdc\ufffd'],
    ['a paired surrogate (kept)', 'a\ud83d\ude00b', 'a\ud83d\ude00b'],
    ['DEL and C1 (allowed)', 'a\u007fb\u0085c', 'a\u007fb\u0085c'],
  ])('writes a message with %s as text a strict XML parser reads back', (_, message, read) => {
    const xml = googleErrorXml('INVALID_REQUEST', message);
    expect(readGoogleXml(xml)).toEqual({ status: 'INVALID_REQUEST', error_message: read, results: [] });
  });
});
