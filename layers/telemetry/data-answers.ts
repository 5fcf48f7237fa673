/**
 * The data layer's answers by outcome (RequestCounters.dataAnswers, counted per range-read attempt by the data layer) as
 * EMF: one small document per outcome a request saw, with dimensions {service, dataset, answer}. A request's own
 * document cannot carry them: every metric of an EMF document shares its dimension sets, and `answer` is not a
 * dimension of the request metrics. Requests served from the block cache read nothing and send nothing. Pure.
 */
import type { RequestCounters } from './ports';
import { METRIC } from './constants';

export function dataAnswerDocuments(
  namespace: string,
  service: string,
  dataset: string,
  answers: RequestCounters['dataAnswers'],
  /** The closed set of answer labels (Observed.answers): counts under other keys are not published. */
  labels: readonly string[],
  nowMs: number,
): unknown[] {
  const documents: unknown[] = [];
  // Iterating the closed set (not the object's keys) keeps `answer` closed whatever the object holds.
  for (const answer of labels) {
    const count = answers[answer];
    if (!count) continue;
    documents.push({
      _aws: {
        Timestamp: nowMs,
        CloudWatchMetrics: [
          {
            Namespace: namespace,
            Dimensions: [['service', 'dataset', 'answer']],
            Metrics: [{ Name: METRIC.dataSourceAnswers, Unit: 'Count' }],
          },
        ],
      },
      service,
      dataset,
      answer,
      [METRIC.dataSourceAnswers]: count,
    });
  }
  return documents;
}
