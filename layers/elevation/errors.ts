/**
 * Typed domain errors. Each carries the HTTP status it maps to at the edge; 4xx messages are written for the
 * client (what was wrong and how to fix it), 5xx messages only ever reach the log.
 *
 * @example
 * ```ts
 * const error: ElevationError = new TooManyLocationsError('Too many locations provided (101), the limit is 100.');
 * assert.equal(error.statusCode, 400);
 * assert.equal(error.name, 'TooManyLocationsError');
 * ```
 */
export abstract class ElevationError extends Error {
  abstract readonly statusCode: number;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The start of a client's text to quote in a message (a parameter name, a file's line): at most `max` characters,
 * so a whole file sent where a parameter was expected is not echoed back.
 *
 * @example
 * ```ts
 * assert.equal(excerpt('lat,lon'), 'lat,lon');
 * assert.equal(excerpt('x'.repeat(100)).length, 61); // 60 characters and '…'
 * ```
 */
export function excerpt(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * 400: the request cannot be understood (bad location, bad option, unparseable body).
 *
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * assert.throws(() => registry.resolve('plane-point,plane-point'), InvalidRequestError);
 * ```
 */
export class InvalidRequestError extends ElevationError {
  readonly statusCode = 400;
}

/**
 * 400 with the offending location and its 0-based position named.
 *
 * @example
 * ```ts
 * const error = new InvalidLocationError("Unable to parse location 'x' in position 1.");
 * assert.equal(error.statusCode, 400);
 * ```
 */
export class InvalidLocationError extends InvalidRequestError {}

/**
 * @example
 * ```ts
 * assert.equal(new TooManyLocationsError('Too many locations').statusCode, 400);
 * ```
 */
export class TooManyLocationsError extends InvalidRequestError {}

/**
 * 400, as OpenTopoData answers (its tests assert it): the dataset named in the URL is not configured.
 *
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * assert.throws(() => registry.get('nope'), /Dataset 'nope' not in config\. Available datasets: plane-point/);
 * ```
 */
export class DatasetNotFoundError extends InvalidRequestError {}

/**
 * 400: a fallback chain longer than allowed, or naming a dataset twice.
 *
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * assert.throws(() => registry.resolve('a,b,c,d,e,f,g,h,i,j,k'), InvalidDatasetChainError);
 * ```
 */
export class InvalidDatasetChainError extends InvalidRequestError {}

/**
 * @example
 * ```ts
 * const error = new MethodNotAllowedError('PUT', ['GET', 'POST']);
 * assert.equal(error.statusCode, 405);
 * assert.equal(error.message, 'Method PUT is not allowed here: use GET or POST.');
 * ```
 */
export class MethodNotAllowedError extends ElevationError {
  readonly statusCode = 405;
  constructor(
    method: string,
    readonly allowed: readonly string[],
  ) {
    super(`Method ${method} is not allowed here: use ${allowed.join(' or ')}.`);
  }
}

/**
 * @example
 * ```ts
 * assert.equal(new PayloadTooLargeError('The body is over 1 MiB.').statusCode, 413);
 * ```
 */
export class PayloadTooLargeError extends ElevationError {
  readonly statusCode = 413;
}

/**
 * 415: a request body in a form this API does not read (a `Content-Encoding` it cannot undo).
 *
 * @example
 * ```ts
 * assert.equal(new UnsupportedMediaTypeError('Content-Encoding compress is not supported.').statusCode, 415);
 * ```
 */
export class UnsupportedMediaTypeError extends ElevationError {
  readonly statusCode = 415;
}

/**
 * 502: the data layer answered with an error or unreadable bytes.
 *
 * @example
 * ```ts
 * assert.equal(new DataSourceUnavailableError('HTTP 500 from the data layer').statusCode, 502);
 * ```
 */
export class DataSourceUnavailableError extends ElevationError {
  readonly statusCode = 502;
}

/**
 * 502: the data layer refused access (HTTP 401/403): credentials or a policy are wrong; retrying will not help.
 *
 * @example
 * ```ts
 * const error = new DataSourceAccessDeniedError('HTTP 403 for s3://bucket/tile.tif');
 * assert.ok(error instanceof DataSourceUnavailableError);
 * assert.equal(error.statusCode, 502);
 * ```
 */
export class DataSourceAccessDeniedError extends DataSourceUnavailableError {}

/**
 * 502: the data layer says it is addressed wrongly (an S3 bucket in another region than the client's, a malformed
 * bucket name): a deployment to fix, not a fault that passes; never retried.
 *
 * @example
 * ```ts
 * const error = new DataSourceMisconfiguredError('S3 301 PermanentRedirect for s3://bucket/tile.tif');
 * assert.ok(error instanceof DataSourceUnavailableError);
 * assert.equal(error.statusCode, 502);
 * ```
 */
export class DataSourceMisconfiguredError extends DataSourceUnavailableError {}

/**
 * The data layer refused for good (access denied, or addressed wrongly): asking again answers the same, so such a
 * failure is not retried on a joined load or reopen, and fails a freshness check rather than counting as an outage.
 *
 * @example
 * ```ts
 * assert.ok(refusedForGood(new DataSourceMisconfiguredError('S3 301 PermanentRedirect')));
 * assert.ok(!refusedForGood(new DataSourceUnavailableError('HTTP 500')));
 * ```
 */
export function refusedForGood(error: unknown): boolean {
  return error instanceof DataSourceAccessDeniedError || error instanceof DataSourceMisconfiguredError;
}

/**
 * 502 whose message is safe for the client (it names a dataset, never a URL or a cause): e.g. the one file of a
 * single-file dataset is missing from the data store.
 *
 * @example
 * ```ts
 * const error = new DatasetUnavailableError('srtm', 'its file was not found in the data store.');
 * assert.equal(error.publicMessage, "Dataset 'srtm' is unavailable: its file was not found in the data store.");
 * ```
 */
export class DatasetUnavailableError extends DataSourceUnavailableError {
  readonly publicMessage: string;
  /**
   * `subject` names it for the client when it is not a dataset a client asked for (a geoid grid); `reason` is
   * kept so a caller can name it otherwise.
   */
  constructor(
    dataset: string,
    readonly reason: string,
    options?: { cause?: unknown; subject?: string },
  ) {
    const message = `${options?.subject ?? `Dataset '${dataset}'`} is unavailable: ${reason}`;
    super(message, options);
    this.publicMessage = message;
  }
}

/**
 * 504: the data layer did not answer in time (after retries).
 *
 * @example
 * ```ts
 * assert.equal(new DataSourceTimeoutError('no answer in 5000 ms').statusCode, 504);
 * ```
 */
export class DataSourceTimeoutError extends ElevationError {
  readonly statusCode = 504;
}

/**
 * 504: the invocation's deadline (the Lambda's remaining time minus a margin) passed before the answer.
 *
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * configureBlockCache(16 * 1024 * 1024);
 * const signal = AbortSignal.abort(new DeadlineExceededError('Request deadline of 0 ms passed'));
 * await assert.rejects(registry.get('lzw-plane').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { signal }), DataSourceTimeoutError);
 * ```
 */
export class DeadlineExceededError extends DataSourceTimeoutError {}

/**
 * 500: the configuration or a dataset file is unusable; an operator must fix it.
 *
 * @example
 * ```ts
 * assert.throws(() => parseApiConfig('datasets: [{name: a}]'), DatasetConfigError);
 * ```
 */
export class DatasetConfigError extends ElevationError {
  readonly statusCode = 500;
}

/**
 * The object changed under us (its ETag, Last-Modified or size differs from when its header was read): its
 * cached header and blocks are stale. The dataset reopens the file once; a second change becomes a 502.
 *
 * @example
 * ```ts
 * const error = new ObjectChangedError('http://data/tile.tif', 'ETag changed');
 * assert.equal(error.url, 'http://data/tile.tif');
 * assert.equal(error.statusCode, 502);
 * ```
 */
export class ObjectChangedError extends DataSourceUnavailableError {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A block whose bytes arrived as asked (verified range, same object version) but do not decode: its compressed
 * stream fails (a checksum, a length), or the header read earlier points at the wrong bytes (a byte of its offsets
 * damaged on the way). The dataset reads the file's header again once and retries; a second failure is the 502.
 *
 * @example
 * ```ts
 * const error = new UndecodableBlockError('http://data/tile.tif', 'Cannot decode block 3');
 * assert.equal(error.url, 'http://data/tile.tif');
 * assert.equal(error.statusCode, 502);
 * ```
 */
export class UndecodableBlockError extends DataSourceUnavailableError {
  constructor(
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A file or object that does not exist: for tiled datasets this means "no data here", never an error.
 *
 * @example
 * ```ts
 * assert.equal(new SourceNotFoundError('s3://dem/N00E000.tif').message, 'Not found: s3://dem/N00E000.tif');
 * ```
 */
export class SourceNotFoundError extends Error {
  constructor(readonly url: string) {
    super(`Not found: ${url}`);
    this.name = 'SourceNotFoundError';
  }
}
