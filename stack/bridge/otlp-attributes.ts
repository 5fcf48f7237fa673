/** X-Ray segment fields → OTLP attributes (semantic-convention names where one exists). */
export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
}
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** Metadata values can be anything; long JSON is cut so one span cannot blow up a batch. */
const MAX_VALUE_CHARS = 2048;

export function otlpValue(value: unknown): OtlpAnyValue {
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return { stringValue: text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text };
}

type Doc = Record<string, unknown>;
const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export function otlpAttributes(doc: Doc, inProgress: boolean): OtlpKeyValue[] {
  const attrs: OtlpKeyValue[] = [];
  const add = (key: string, value: unknown): void => {
    if (value !== undefined && value !== null) attrs.push({ key, value: otlpValue(value) });
  };
  // Annotations keep their own names: they are what people search for (dataset, points, …).
  if (isDoc(doc.annotations)) for (const [k, v] of Object.entries(doc.annotations)) add(k, v);
  if (isDoc(doc.metadata)) {
    for (const [ns, entries] of Object.entries(doc.metadata)) {
      if (isDoc(entries)) for (const [k, v] of Object.entries(entries)) add(`metadata.${ns}.${k}`, v);
    }
  }
  const http = isDoc(doc.http) ? doc.http : {};
  const request = isDoc(http.request) ? http.request : {};
  const response = isDoc(http.response) ? http.response : {};
  add('http.request.method', request.method);
  add('url.full', request.url);
  add('user_agent.original', request.user_agent);
  add('client.address', request.client_ip);
  add('http.response.status_code', response.status);
  add('http.response.body.size', response.content_length);
  if (isDoc(doc.aws)) for (const [k, v] of Object.entries(doc.aws)) if (!isDoc(v)) add(`aws.${k}`, v);
  add('aws.xray.origin', doc.origin);
  add('aws.xray.namespace', doc.namespace);
  for (const flag of ['error', 'fault', 'throttle'] as const)
    if (doc[flag] === true) add(`aws.xray.${flag}`, true);
  if (isDoc(doc.cause) && Array.isArray(doc.cause.exceptions)) {
    const first: unknown = doc.cause.exceptions[0];
    if (isDoc(first)) {
      add('exception.type', first.type);
      add('exception.message', first.message);
    }
  }
  if (inProgress) add('aws.xray.in_progress', true);
  return attrs;
}
