/**
 * Parses one EMF (CloudWatch Embedded Metric Format) JSON document into metric samples.
 * Pure: no Prometheus here. Rejects anything that is not a well-formed EMF document.
 */
export interface EmfSample {
  namespace: string;
  name: string;
  unit: string;
  /** One value, or several when the same metric was added more than once to a document. */
  values: number[];
  /** Union of every dimension set's keys: the finest aggregation the document describes. */
  labels: Record<string, string>;
}

export type EmfParseResult =
  { kind: 'emf'; samples: EmfSample[] } | { kind: 'not-emf' } | { kind: 'malformed'; reason: string };

interface MetricDirective {
  Namespace?: unknown;
  Dimensions?: unknown;
  Metrics?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseEmfLine(line: string): EmfParseResult {
  const text = line.trim();
  // Cheap pre-check: most stdout lines (JSON logs, serverless-offline chatter) are not EMF.
  if (!text.startsWith('{') || !text.includes('"_aws"')) return { kind: 'not-emf' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { kind: 'malformed', reason: 'invalid JSON' };
  }
  if (!isRecord(doc) || !isRecord(doc._aws)) return { kind: 'not-emf' };
  const directives = doc._aws.CloudWatchMetrics;
  if (!Array.isArray(directives))
    return { kind: 'malformed', reason: '_aws.CloudWatchMetrics is not an array' };
  const samples: EmfSample[] = [];
  for (const directive of directives as MetricDirective[]) {
    const parsed = parseDirective(directive, doc);
    if (typeof parsed === 'string') return { kind: 'malformed', reason: parsed };
    samples.push(...parsed);
  }
  return { kind: 'emf', samples };
}

function parseDirective(d: MetricDirective, doc: Record<string, unknown>): EmfSample[] | string {
  if (!isRecord(d) || typeof d.Namespace !== 'string' || d.Namespace === '')
    return 'directive without Namespace';
  if (!Array.isArray(d.Dimensions) || !Array.isArray(d.Metrics))
    return 'directive without Dimensions/Metrics arrays';
  const labels: Record<string, string> = {};
  for (const set of d.Dimensions as unknown[]) {
    if (!Array.isArray(set)) return 'dimension set is not an array';
    for (const key of set) {
      const value = doc[key as string];
      if (typeof key !== 'string' || typeof value !== 'string')
        return `dimension ${String(key)} has no string value`;
      labels[key] = value;
    }
  }
  const samples: EmfSample[] = [];
  for (const m of d.Metrics as unknown[]) {
    if (!isRecord(m) || typeof m.Name !== 'string' || m.Name === '') return 'metric without Name';
    const raw = doc[m.Name];
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.length === 0 || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      return `metric ${m.Name} has no finite numeric value`;
    }
    const unit = typeof m.Unit === 'string' && m.Unit !== '' ? m.Unit : 'None';
    samples.push({ namespace: d.Namespace, name: m.Name, unit, values: values as number[], labels });
  }
  return samples;
}
