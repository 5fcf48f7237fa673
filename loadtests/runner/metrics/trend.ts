/**
 * Trend storage: keeps every value (exact percentiles, no sketch error). 8 bytes a value: one million
 * requests cost 8 MB per trend metric, which is fine for the run lengths this runner is used for.
 */
export class TrendValues {
  private values = new Float64Array(1024);
  private sortedUpTo = 0;
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;

  add(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = value;
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }

  addAll(values: ArrayLike<number>): void {
    for (let i = 0; i < values.length; i++) this.add(values[i]);
  }

  /** Values added since `from` (used to ship deltas from worker threads). */
  slice(from: number): Float64Array {
    return this.values.slice(from, this.count);
  }

  /** k6's TrendSink.P: linear interpolation between the closest ranks of the sorted values. */
  percentile(fraction: number): number {
    if (this.count === 0) return 0;
    if (this.count === 1) return this.values[0];
    const sorted = this.sorted();
    const rank = fraction * (this.count - 1);
    const low = sorted[Math.floor(rank)];
    const high = sorted[Math.ceil(rank)];
    return low + (high - low) * (rank - Math.floor(rank));
  }

  get avg(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  private sorted(): Float64Array {
    if (this.sortedUpTo !== this.count) {
      this.values.subarray(0, this.count).sort();
      this.sortedUpTo = this.count;
    }
    return this.values;
  }
}
