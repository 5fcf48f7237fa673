// Metric names in a PromQL expression, for the "every metric is in the catalogue" lint rule.
// Not a full parser: it removes strings, label matchers, ranges and grouping clauses, then keeps the
// identifiers that are not functions, keywords or numbers, which is what our panels need.

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

export const metricNames = (expr: string): string[] => {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = m[0];
    const next = stripped.slice((m.index ?? 0) + word.length).trimStart();
    if (next.startsWith('(') || KEYWORDS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
};

/** A histogram's series are catalogued under its base name. */
export const baseMetricName = (name: string): string => name.replace(/_(bucket|sum|count)$/, '');
