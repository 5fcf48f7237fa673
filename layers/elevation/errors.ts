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

export class DatasetNotFoundError extends ElevationError {
  readonly statusCode = 404;
}

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

/** 504: the data layer did not answer in time (after retries). */
export class DataSourceTimeoutError extends ElevationError {
  readonly statusCode = 504;
}

/** 500: the configuration or a dataset file is unusable; an operator must fix it. */
export class DatasetConfigError extends ElevationError {
  readonly statusCode = 500;
}

/** A file or object that does not exist: for tiled datasets this means "no data here", never an error. */
export class SourceNotFoundError extends Error {
  constructor(readonly url: string) {
    super(`Not found: ${url}`);
    this.name = 'SourceNotFoundError';
  }
}
