/**
 * A CloudWatch-agent-style UDP intake for the API's EMF documents (AWS_EMF_AGENT_ENDPOINT): the bench sums the
 * block-cache hits and misses the handlers report per request. A lost datagram loses one request's counts; on
 * 127.0.0.1 with a 4 MB receive buffer that does not happen at these rates.
 */
import dgram from 'node:dgram';

export interface EmfTotals {
  BlockCacheHits: number;
  BlockCacheMisses: number;
  Requests: number;
}

export interface EmfListener {
  endpoint: string;
  totals(): EmfTotals;
  close(): void;
}

const SUMMED = ['BlockCacheHits', 'BlockCacheMisses', 'Requests'] as const;

export async function listenForEmf(): Promise<EmfListener> {
  const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
  const sums: EmfTotals = { BlockCacheHits: 0, BlockCacheMisses: 0, Requests: 0 };
  socket.on('message', (message) => {
    for (const line of message.toString().split('\n')) {
      if (line.trim() === '') continue;
      try {
        const document = JSON.parse(line) as Record<string, unknown>;
        for (const name of SUMMED) sums[name] += total(document[name]);
      } catch {
        // not an EMF document: ignore
      }
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `udp://127.0.0.1:${socket.address().port}`,
    totals: () => ({ ...sums }),
    close: () => socket.close(),
  };
}

function total(value: unknown): number {
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + (typeof v === 'number' ? v : 0), 0);
  return 0;
}
