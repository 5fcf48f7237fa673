// The foundation SDK ships query types for core datasources but none for Jaeger, so this is the
// SDK's documented extension point (a Dataquery variant) with the fields of Grafana's JaegerQuery.
import type { Builder, Dataquery } from '@grafana/grafana-foundation-sdk/cog';
import type { DataSourceRef } from '@grafana/grafana-foundation-sdk/common';
import type { TraceSearch } from '../queries';

export interface JaegerQuery {
  refId: string;
  datasource: DataSourceRef;
  queryType: 'search';
  service: string;
  operation?: string;
  minDuration?: string;
  limit?: number;
  _implementsDataqueryVariant(): void;
}

export class JaegerSearchBuilder implements Builder<Dataquery> {
  private readonly query: JaegerQuery;

  /** Only the query fields: TraceSearch.sortBy is a display choice (the table's sortBy). */
  constructor(refId: string, datasource: DataSourceRef, search: TraceSearch) {
    const { service, operation, minDuration, limit } = search;
    this.query = { refId, datasource, queryType: 'search', service, limit, _implementsDataqueryVariant() {} };
    if (operation) this.query.operation = operation;
    if (minDuration) this.query.minDuration = minDuration;
  }

  build(): JaegerQuery {
    return this.query;
  }
}
