/** What a cold block read tells the trace (X-Ray subsegment `read-block`), and the counters of a warm one. */
import { configureBlockCache, loadDatasetRegistry } from '../../../layers/elevation';
import { newReadStats } from '../../../layers/elevation/types';
import { recordingTrace, type RecordedSpan } from '../../support/recording-trace';

describe('getBlock telemetry', () => {
  it('annotates a cold read with its file, block, cache miss and the bytes it read; a warm one opens no span', async () => {
    configureBlockCache(16 * 1024 * 1024);
    const dataset = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' }).get('plane-point');
    const point = [{ lat: 49.9, lon: 10.1 }];
    await dataset.sample(point, 'nearest'); // opens the file: its header reads are not the block's
    configureBlockCache(16 * 1024 * 1024);
    const spans: RecordedSpan[] = [];
    const stats = newReadStats();
    stats.rangeBytes = 1000; // read earlier in the same request: the span counts only its own bytes
    await dataset.sample(point, 'nearest', { stats, trace: recordingTrace(spans) });
    const reads = spans.filter((s) => s.name === 'read-block');
    expect(reads).toHaveLength(1);
    expect(reads[0].annotations).toEqual({
      file: expect.stringMatching(/plane-point\.tif$/),
      block: expect.any(Number),
      cacheHit: false,
      bytes: stats.rangeBytes - 1000,
    });
    expect(stats.rangeBytes).toBeGreaterThan(1000);
    expect([stats.blockCacheMisses, stats.blocksRead, stats.blockCacheHits]).toEqual([1, 1, 0]);

    const warm: RecordedSpan[] = [];
    const warmStats = newReadStats();
    await dataset.sample(point, 'nearest', { stats: warmStats, trace: recordingTrace(warm) });
    expect(warm.filter((s) => s.name === 'read-block')).toEqual([]);
    expect([warmStats.blockCacheMisses, warmStats.blocksRead, warmStats.blockCacheHits]).toEqual([0, 0, 1]);
  });
});
