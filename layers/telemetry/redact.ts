/**
 * Credentials in URLs never leave the process in telemetry: a dataset location may carry them
 * (`https://user:password@host/dem/`, sent as Basic auth), and the location is in error messages, a block read's
 * `file` annotation and exception events. Log lines, annotations and exceptions pass through here.
 */

/** A URL's user information: after `scheme://`, up to the `@` before its host. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;

/**
 * `text` with every URL's user information replaced by `***`.
 *
 * @example
 * ```ts
 * assert.equal(
 *   redactUrlCredentials('Reading https://ops:S3cret@data.example/dem/a.tif failed'),
 *   'Reading https://***@data.example/dem/a.tif failed',
 * );
 * assert.equal(redactUrlCredentials('s3://bucket/key'), 's3://bucket/key');
 * ```
 */
export function redactUrlCredentials(text: string): string {
  // Most text holds no URL with user information: skip the regex.
  if (!text.includes('@') || !text.includes('://')) return text;
  return text.replace(USERINFO, '$1***@');
}

/** An error whose message and stack show no URL credentials (the same error when none are in them). */
export function redactedError(error: Error): Error {
  const message = redactUrlCredentials(error.message);
  const stack = error.stack === undefined ? undefined : redactUrlCredentials(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = new Error(message);
  copy.name = error.name;
  copy.stack = stack;
  return copy;
}
