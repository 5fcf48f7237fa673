import { DATA_ANSWERS } from '../../../layers/elevation';
import { dataAnswerDocuments } from '../../../layers/telemetry/data-answers';
import { senderSocket, isLoopback } from '../../../layers/telemetry/udp-socket';

describe('dataAnswerDocuments', () => {
  it('writes one EMF document per outcome seen, with dimensions service, dataset and answer', () => {
    const docs = dataAnswerDocuments(
      'ElevationAPI',
      'elevation-api',
      'sample',
      { ok: 3, throttled: 2 },
      DATA_ANSWERS,
      1000,
    );
    expect(docs).toEqual([
      expect.objectContaining({ dataset: 'sample', answer: 'ok', DataSourceAnswers: 3 }),
      expect.objectContaining({ dataset: 'sample', answer: 'throttled', DataSourceAnswers: 2 }),
    ]);
    expect((docs[0] as { _aws: unknown })._aws).toEqual({
      Timestamp: 1000,
      CloudWatchMetrics: [
        {
          Namespace: 'ElevationAPI',
          Dimensions: [['service', 'dataset', 'answer']],
          Metrics: [{ Name: 'DataSourceAnswers', Unit: 'Count' }],
        },
      ],
    });
  });

  it('sends nothing for a request that read nothing, and ignores keys outside the closed set of labels', () => {
    expect(dataAnswerDocuments('N', 's', 'sample', {}, DATA_ANSWERS, 0)).toEqual([]);
    const forged = { ok: 0, teapot: 1 } as unknown as Parameters<typeof dataAnswerDocuments>[3];
    expect(dataAnswerDocuments('N', 's', 'sample', forged, DATA_ANSWERS, 0)).toEqual([]);
  });
});

describe('senderSocket', () => {
  it('binds to 127.0.0.1 when the receiver is on loopback', async () => {
    const socket = senderSocket('127.0.0.1');
    await new Promise((resolve) => socket.once('listening', resolve));
    expect(socket.address().address).toBe('127.0.0.1');
    socket.close();
  });

  it.each([
    ['127.0.0.1', true],
    ['localhost', true],
    ['169.254.79.129', false],
    ['0.0.0.0', false],
  ])('treats %p as loopback: %p', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});
