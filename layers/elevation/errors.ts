/**
 * Typed domain errors. Each carries the HTTP status it maps to at the edge; 4xx messages are written for the
 * client (what was wrong and how to fix it), 5xx messages only ever reach the log.
 */
export abstract class ElevationError extends Error {
  abstract readonly statusCode: number;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** 400: the request cannot be understood (bad location, bad option, unparseable body). */
export class InvalidRequestError extends ElevationError {
  readonly statusCode = 400;
}

/** 400 with the offending location and its 0-based position named. */
export class InvalidLocationError extends InvalidRequestError {}

export class TooManyLocationsError extends InvalidRequestError {}

/** 400, as OpenTopoData answers (its tests assert it): the dataset named in the URL is not configured. */
export class DatasetNotFoundError extends InvalidRequestError {}

/** 400: a fallback chain longer than allowed, or naming a dataset twice. */
export class InvalidDatasetChainError extends InvalidRequestError {}

export class MethodNotAllowedError extends ElevationError {
  readonly statusCode = 405;
  constructor(
    method: string,
    readonly allowed: readonly string[],
  ) {
    super(`Method ${method} is not allowed here: use ${allowed.join(' or ')}.`);
  }
}

export class PayloadTooLargeError extends ElevationError {
  readonly statusCode = 413;
}

/** 502: the data layer answered with an error or unreadable bytes. */
export class DataSourceUnavailableError extends ElevationError {
  readonly statusCode = 502;
}

/** 502: the data layer refused access (HTTP 401/403): credentials or a policy are wrong; retrying will not help. */
export class DataSourceAccessDeniedError extends DataSourceUnavailableError {}

/**
 * 502 whose message is safe for the client (it names a dataset, never a URL or a cause): e.g. the one file of a
 * single-file dataset is missing from the data store.
 */
export class DatasetUnavailableError extends DataSourceUnavailableError {
  readonly publicMessage: string;
  constructor(dataset: string, reason: string, options?: { cause?: unknown }) {
    super(`Dataset '${dataset}' is unavailable: ${reason}`, options);
    this.publicMessage = `Dataset '${dataset}' is unavailable: ${reason}`;
  }
}

/** 504: the data layer did not answer in time (after retries). */
export class DataSourceTimeoutError extends ElevationError {
  readonly statusCode = 504;
}

/** 504: the invocation's deadline (the Lambda's remaining time minus a margin) passed before the answer. */
export class DeadlineExceededError extends DataSourceTimeoutError {}

/** 500: the configuration or a dataset file is unusable; an operator must fix it. */
export class DatasetConfigError extends ElevationError {
  readonly statusCode = 500;
}

/**
 * The object changed under us (its ETag, Last-Modified or size differs from when its header was read): its
 * cached header and blocks are stale. The dataset reopens the file once; a second change becomes a 502.
 */
export class ObjectChangedError extends DataSourceUnavailableError {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

/** A file or object that does not exist: for tiled datasets this means "no data here", never an error. */
export class SourceNotFoundError extends Error {
  constructor(readonly url: string) {
    super(`Not found: ${url}`);
    this.name = 'SourceNotFoundError';
  }
}
