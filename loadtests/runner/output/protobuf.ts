/**
 * Minimal protobuf encoder for Prometheus remote-write v1 `WriteRequest` (prompb/remote.proto):
 *   WriteRequest { repeated TimeSeries timeseries = 1; }
 *   TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
 *   Label        { string name = 1; string value = 2; }
 *   Sample       { double value = 1; int64 timestamp = 2; }
 * Four messages do not justify a protobuf library.
 */
export interface PromLabel {
  name: string;
  value: string;
}
export interface PromSeries {
  labels: PromLabel[];
  value: number;
  timestampMs: number;
}

class Writer {
  private chunks: number[] = [];
  varint(value: number): this {
    let v = value;
    while (v > 0x7f) {
      this.chunks.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.chunks.push(v);
    return this;
  }
  tag(field: number, wireType: number): this {
    return this.varint((field << 3) | wireType);
  }
  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2).varint(data.length);
    for (const b of data) this.chunks.push(b);
    return this;
  }
  string(field: number, text: string): this {
    return this.bytes(field, Buffer.from(text, 'utf8'));
  }
  double(field: number, value: number): this {
    const buf = Buffer.alloc(8);
    buf.writeDoubleLE(value);
    this.tag(field, 1);
    for (const b of buf) this.chunks.push(b);
    return this;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

function encodeSeries(s: PromSeries): Uint8Array {
  const w = new Writer();
  for (const label of s.labels)
    w.bytes(1, new Writer().string(1, label.name).string(2, label.value).finish());
  const sample = new Writer().double(1, s.value).tag(2, 0).varint(s.timestampMs).finish();
  return w.bytes(2, sample).finish();
}

export function encodeWriteRequest(series: PromSeries[]): Uint8Array {
  const w = new Writer();
  for (const s of series) w.bytes(1, encodeSeries(s));
  return w.finish();
}
