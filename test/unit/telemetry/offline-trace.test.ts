import {
  exceptionCause,
  newTraceHeader,
  OfflineSampler,
  parseDaemonAddress,
  rootSegmentDocument,
  sampleRateFromEnv,
} from '../../../layers/telemetry/offline-trace';
import { parseAgentEndpoint } from '../../../layers/telemetry/emf-agent';

describe('offline trace header', () => {
  it('has the Lambda shape Root=1-<8 hex time>-<24 hex>;Parent=<16 hex>;Sampled=1', () => {
    const header = newTraceHeader(true, Date.UTC(2026, 10, 29, 20, 0, 0));
    expect(header.value).toMatch(/^Root=1-6b0c8440-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=1$/);
    expect(header.value).toBe(`Root=${header.root};Parent=${header.parent};Sampled=1`);
  });

  it('is unique per invocation', () => {
    const roots = new Set(Array.from({ length: 200 }, () => newTraceHeader(true).root));
    expect(roots.size).toBe(200);
  });

  it('says Sampled=0 for an unsampled invocation', () => {
    expect(newTraceHeader(false).value).toMatch(/;Sampled=0$/);
  });
});

describe('offline sampling', () => {
  it("follows X-Ray's default rule: the first request each second, then 5%", () => {
    const sampler = new OfflineSampler(undefined);
    const never = (): number => 0.99;
    expect([1000, 1100, 1999].map((t) => sampler.sample(t, never))).toEqual([true, false, false]);
    expect(sampler.sample(2000, never)).toBe(true);
    expect(sampler.sample(2001, () => 0.04)).toBe(true);
  });

  it('uses a fixed rate when XRAY_SAMPLE_RATE is set', () => {
    const all = new OfflineSampler(1);
    expect([1, 2, 3].map((t) => all.sample(t, () => 0.999))).toEqual([true, true, true]);
    const quarter = new OfflineSampler(0.25);
    expect([quarter.sample(1, () => 0.2), quarter.sample(2, () => 0.3)]).toEqual([true, false]);
    expect(new OfflineSampler(0).sample(1, () => 0)).toBe(false);
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['0.1', 0.1],
    ['0', 0],
    ['1', 1],
  ])('reads XRAY_SAMPLE_RATE=%p as %p', (value, rate) => {
    expect(sampleRateFromEnv(value)).toBe(rate);
  });

  it.each(['2', 'abc', '-0.5'])('rejects XRAY_SAMPLE_RATE=%p naming the variable', (value) => {
    expect(() => sampleRateFromEnv(value)).toThrow(/XRAY_SAMPLE_RATE/);
  });
});

describe('addresses', () => {
  it('parses the X-Ray daemon address in both SDK forms', () => {
    expect(parseDaemonAddress('127.0.0.1:2000')).toEqual({ host: '127.0.0.1', port: 2000 });
    expect(parseDaemonAddress('tcp:127.0.0.1:2001 udp:127.0.0.1:2002')).toEqual({
      host: '127.0.0.1',
      port: 2002,
    });
    expect(parseDaemonAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2000 });
    expect(() => parseDaemonAddress('localhost')).toThrow(/AWS_XRAY_DAEMON_ADDRESS/);
  });

  it('parses the EMF agent endpoint and names the variable when it is wrong', () => {
    expect(parseAgentEndpoint('udp://127.0.0.1:25888')).toEqual({ host: '127.0.0.1', port: 25888 });
    expect(parseAgentEndpoint(undefined)).toBeUndefined();
    expect(() => parseAgentEndpoint('tcp://127.0.0.1:25888')).toThrow(/AWS_EMF_AGENT_ENDPOINT/);
  });
});

describe('synthesized root segment', () => {
  const header = newTraceHeader(true);
  const facts = {
    header,
    functionName: 'fn',
    awsRequestId: 'r',
    startMs: 1000,
    endMs: 1500,
    coldStart: false,
  };

  it('carries the trace header ids so subsegments attach to it', () => {
    const doc = rootSegmentDocument({ ...facts, status: 200, method: 'GET', url: '/v1/sample' });
    expect(doc).toMatchObject({
      id: header.parent,
      trace_id: header.root,
      name: 'fn',
      start_time: 1,
      end_time: 1.5,
    });
    expect(doc).toMatchObject({ origin: 'AWS::Lambda::Function', http: { response: { status: 200 } } });
    expect(doc).not.toHaveProperty('fault');
    expect(doc).not.toHaveProperty('error');
  });

  it.each([
    [404, { error: true }],
    [429, { error: true, throttle: true }],
    [502, { fault: true }],
  ])('flags status %p as %p', (status, flags) => {
    expect(rootSegmentDocument({ ...facts, status })).toMatchObject(flags);
  });
});

describe('credentials in URLs', () => {
  it("never reach a trace's exception: message and stack show ***@", () => {
    const error = new Error('Reading https://ops:pw@data.example/dem/a.tif failed');
    const cause = exceptionCause(error) as { exceptions: { message: string; stack: unknown }[] };
    expect(cause.exceptions[0].message).toBe('Reading https://***@data.example/dem/a.tif failed');
    expect(JSON.stringify(cause)).not.toContain('ops:pw');
  });
});
