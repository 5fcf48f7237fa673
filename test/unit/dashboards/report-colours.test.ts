// Within one chart no two lines share a colour (a 20-colour hash of the name gave p95 and p99 the same one).
import { renderHtml } from '../../../scripts/report/html';
import type { ReportData } from '../../../scripts/report/collect';
import { paletteIndexOf } from '../../../scripts/report/colours';

/** Two series names whose hashes land on the same palette slot. */
const collidingPair = (): [string, string] => {
  const first = 'p95 spike-1';
  for (let i = 0; ; i++) {
    const other = `p99 spike-${i}`;
    if (paletteIndexOf(other) === paletteIndexOf(first)) return [first, other];
  }
};

describe('the report’s chart colours', () => {
  it('differ between the series of one chart, even when their names hash alike', () => {
    const names = collidingPair();
    const html = renderHtml({
      title: 't',
      generatedAt: '',
      window: { from: 0, to: 1 },
      rateWindow: { seconds: 5, reason: '' },
      sections: [{ uid: 'load-test', title: 'Load test', rows: [{ title: 'r', panelKeys: ['k'] }] }],
      panels: {
        k: {
          key: 'k',
          title: 'k',
          description: '',
          unit: 's',
          queries: [],
          series: names.map((name) => ({ name, points: [[0, 1]] })),
        },
      },
      checks: [],
      traces: { service: '', functions: [], slowest: [] },
      tables: [],
    } as unknown as ReportData);
    const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
    const embedded = JSON.parse(json) as { panels: Record<string, { series: { colour?: string }[] }> };
    const colours = embedded.panels.k.series.map((s) => s.colour);
    expect(colours.every((c) => typeof c === 'string')).toBe(true);
    expect(new Set(colours).size).toBe(2);
  });
});
