import { OfflineLogWriter, offlineLine } from '../../scripts/start/offline-log';

const NOW = new Date('2026-12-01T10:00:00.000Z');

describe('npm start output', () => {
  it("turns serverless-offline's request line into a JSON line without the coordinates of its query", () => {
    const line = offlineLine(
      '\u001b[33mGET /v1/sample?locations=48.742275,9.101177|48.1,9.2 (λ: elevation)\u001b[39m',
      NOW,
    );
    expect(JSON.parse(line ?? '')).toEqual({
      level: 'INFO',
      message: 'GET /v1/sample?… (λ: elevation)',
      timestamp: NOW.toISOString(),
      source: 'serverless-offline',
    });
    expect(line).not.toMatch(/48\.7|9\.10/);
  });

  it('passes JSON log lines through unchanged and drops blank ones', () => {
    const json = '{"level":"INFO","message":"request","status":200}';
    expect(offlineLine(json, NOW)).toBe(json);
    expect(offlineLine('   ', NOW)).toBeNull();
  });

  it('marks warnings and errors with their level', () => {
    expect(JSON.parse(offlineLine('Warning: something odd', NOW) ?? '').level).toBe('WARN');
    expect(JSON.parse(offlineLine('Error: handler failed', NOW) ?? '').level).toBe('ERROR');
  });

  it('reassembles lines split across chunks', () => {
    const written: string[] = [];
    const writer = new OfflineLogWriter((l) => written.push(l));
    writer.push('{"message":"req');
    writer.push('uest"}\nPOST /api/elevation?coord');
    writer.push('inates=48,9 (λ: legacy)\n');
    writer.flush();
    expect(written).toHaveLength(2);
    expect(written[0]).toBe('{"message":"request"}\n');
    expect(JSON.parse(written[1]).message).toBe('POST /api/elevation?… (λ: legacy)');
  });
});
