/**
 * The `dataset` telemetry fields of a request, the same on every route that takes a dataset or chain: a configured
 * dataset (child_datasets chains included) keeps its name; a request-made chain ("a,b", one of thousands of
 * orderings) becomes `chain:<n>` as a metric dimension, and its names go to the log line only (`chain`).
 */
import { chainDimension } from '../layers/telemetry';

export interface DatasetFields {
  dataset: string;
  chain?: string;
}

export function datasetFields(configuredNames: readonly string[], resolvedName: string): DatasetFields {
  if (configuredNames.includes(resolvedName)) return { dataset: resolvedName };
  const chain = resolvedName.split(',');
  return { dataset: chainDimension(chain.length), chain: chain.join(',') };
}
