// Line colours of the report's charts. A colour follows the series name (as Grafana's palette-classic-by-name), so
// one series keeps one colour across panels, but within one chart no two series share one: hashing 20 colours let
// p95 and p99 come out the same.

export const PALETTE = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#7f7f7f',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#3182bd',
  '#e6550d',
  '#31a354',
  '#756bb1',
  '#0f5e8c',
  '#b5651d',
];

/** The name's own palette slot (FNV-1a). */
export const paletteIndexOf = (name: string): number => {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return (h >>> 0) % PALETTE.length;
};

/**
 * One colour per series of a chart, in order: the name's own slot, or the next free one when an earlier series of
 * the chart has it (a chart of more than 20 series repeats colours only then).
 */
export const seriesColours = (names: string[]): string[] => {
  const taken = new Set<number>();
  return names.map((name) => {
    let slot = paletteIndexOf(name);
    for (let tries = 0; taken.has(slot) && tries < PALETTE.length; tries++)
      slot = (slot + 1) % PALETTE.length;
    taken.add(slot);
    return PALETTE[slot];
  });
};
