import {
  newTraceHeader,
  parseDaemonAddress,
  rootSegmentDocument,
  sampleRateFromEnv,
} from '../../../layers/telemetry/offline-trace';
import { parseAgentEndpoint } from '../../../layers/telemetry/emf-agent';

describe('offline trace header', () => {
  it('has the Lambda shape Root=1-<8 hex time>-<24 hex>;Parent=<16 hex>;Sampled=1', () => {
    const header = newTraceHeader(1, Date.UTC(2026, 10, 29, 20, 0, 0), () => 0.5);
    expect(header.value).toMatch(/^Root=1-6b0c8440-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=1$/);
    expect(header.value).toBe(`Root=${header.root};Parent=${header.parent};Sampled=1`);
  });

  it('is unique per invocation', () => {
    const roots = new Set(Array.from({ length: 200 }, () => newTraceHeader(1).root));
    expect(roots.size).toBe(200);
  });

  it('samples with the configured rate', () => {
    expect(newTraceHeader(0.25, Date.now(), () => 0.2).sampled).toBe(true);
    expect(newTraceHeader(0.25, Date.now(), () => 0.3).value).toMatch(/Sampled=0$/);
    expect(newTraceHeader(0, Date.now(), () => 0).sampled).toBe(false);
  });

  it.each([
    [undefined, 1],
    ['', 1],
    ['0.1', 0.1],
    ['0', 0],
    ['2', 1],
    ['abc', 1],
  ])('reads XRAY_SAMPLE_RATE=%p as %p', (value, rate) => {
    expect(sampleRateFromEnv(value)).toBe(rate);
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
  const header = newTraceHeader(1);
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
