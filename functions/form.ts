/**
 * Requests sent as HTML forms (`multipart/form-data`: `curl -F`, a browser form, Postman's form-data, Python's
 * `requests.post(files=…)`): a track file uploaded to `/file` or `/profile` (its one file part and its name), and
 * the form's text fields, which carry the request's parameters (OpenTopoData reads a POST's form fields, so a
 * `/v1` form is one). Parsed with busboy (the parser behind multer), held to byte limits. A form that ends before
 * its closing boundary is refused, never read as a shorter file.
 */
import busboy from 'busboy';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { excerpt, InvalidRequestError, PayloadTooLargeError } from '../layers/elevation';
import { base64DecodedBytes, textDamage } from './body-bytes';

export interface FormFile {
  bytes: Uint8Array;
  /** The file's name as the client gave it (path stripped), or null if it gave none. */
  filename: string | null;
}

export interface Form {
  /** The one file part, or null if the form has none. */
  file: FormFile | null;
  /** The form's text fields (request options, or a profile's `locations`), each given once. */
  fields: Record<string, string>;
}

export interface FormLimits {
  /** MAX_FILE_BYTES; null where the route takes no file (a file part is then refused, not ignored). */
  maxFileBytes: number | null;
  /** The longest text field: an option is short, a profile's `locations` may be long. */
  maxFieldBytes: number;
}

/** Boundaries and part headers around the file and fields: what a form may add to its file and longest field. */
const FORM_OVERHEAD_BYTES = 16 * 1024;
/** Text fields a form may carry besides its file (the file options are five). */
const MAX_FIELDS = 16;
/** Options' values are short: `POST /file`'s field limit. */
export const OPTION_FIELD_BYTES = 1024;

/** A multipart/form-data request's file (if any) and fields; a 400 or 413 saying what is wrong with the form. */
export async function readForm(
  event: APIGatewayProxyEventV2,
  contentType: string,
  limits: FormLimits,
): Promise<Form> {
  const text = event.body ?? '';
  const size = event.isBase64Encoded ? base64DecodedBytes(text) : Buffer.byteLength(text);
  const rest = limits.maxFieldBytes + FORM_OVERHEAD_BYTES;
  if (size > (limits.maxFileBytes ?? 0) + rest) {
    throw new PayloadTooLargeError(
      limits.maxFileBytes === null
        ? `The form is ${size} bytes; the limit is ${rest} bytes.`
        : `The form is ${size} bytes; the limit is ${limits.maxFileBytes} bytes for its file (MAX_FILE_BYTES) plus ` +
            `${rest} for the rest. Split the track into smaller files.`,
    );
  }
  const body = Buffer.from(text, event.isBase64Encoded ? 'base64' : 'utf8');
  const { files, fields } = await parseForm(body, contentType, limits);
  const file = files.length === 0 ? null : files[0];
  if (file && file.bytes.byteLength === 0) {
    throw new InvalidRequestError(
      `The form's file${file.filename ? ` '${excerpt(file.filename)}'` : ''} is empty: choose a KML, KMZ, GPX, TCX, GeoJSON, CSV or FIT file.`,
    );
  }
  const damaged = file && !event.isBase64Encoded ? textDamage(file.bytes) : null;
  if (damaged) {
    throw new InvalidRequestError(
      `The ${damaged} arrived as text and lost bytes on the way: send the form as binary (multipart/form-data ` +
        'bodies are), or the file itself with Content-Type: application/octet-stream.',
    );
  }
  return { file, fields };
}

/** The form's file, which `POST /file` needs. */
export function formFile(form: Form): FormFile {
  if (form.file) return form.file;
  throw new InvalidRequestError(
    'The form has no file: add the track as a file field (curl -F file=@track.kml), or send the file itself ' +
      'as the request body (curl --data-binary @track.kml).',
  );
}

interface ParsedForm {
  files: FormFile[];
  fields: Record<string, string>;
}

function parseForm(body: Buffer, contentType: string, limits: FormLimits): Promise<ParsedForm> {
  const { maxFileBytes, maxFieldBytes } = limits;
  return new Promise<ParsedForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Browsers send file names as UTF-8 (busboy's default reads them as Latin-1).
        defParamCharset: 'utf8',
        // One byte more than allowed: busboy reports a size limit when it is reached, not passed. A file past
        // the first, or a field past the last, is reported (and refused), never silently dropped.
        limits: {
          files: maxFileBytes === null ? 0 : 1,
          fileSize: (maxFileBytes ?? 0) + 1,
          fields: MAX_FIELDS,
          fieldSize: maxFieldBytes + 1,
          headerPairs: 16,
        },
      });
    } catch (error) {
      // busboy throws on a multipart type without a boundary.
      reject(new InvalidRequestError(`Invalid multipart/form-data request: ${(error as Error).message}.`));
      return;
    }
    // No prototype: a field named __proto__ is a field like any other (and refused as an unknown option).
    const form: ParsedForm = { files: [], fields: Object.create(null) as Record<string, string> };
    let failure: Error | null = null;
    const fail = (error: Error) => {
      failure ??= error;
    };
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A form cut short errs on the file being read as well as on the parser (answered there).
      stream.on('error', () => undefined);
      stream.on('limit', () =>
        fail(
          new PayloadTooLargeError(
            `The form's file '${name}' is larger than ${maxFileBytes} bytes (MAX_FILE_BYTES). Split the track into smaller files.`,
          ),
        ),
      );
      stream.on('end', () => {
        form.files.push({ bytes: Buffer.concat(chunks), filename: uploadName(info.filename) });
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        fail(new InvalidRequestError(`The form field '${name}' is longer than ${maxFieldBytes} bytes.`));
      } else if (Object.hasOwn(form.fields, name)) {
        fail(new InvalidRequestError(`The form field '${name}' is given more than once; give it once.`));
      } else {
        form.fields[name] = value;
      }
    });
    parser.on('filesLimit', () =>
      fail(
        new InvalidRequestError(
          maxFileBytes === null
            ? 'The form has a file, which this route does not take: send track files to /v1/{dataset}/file or /v1/{dataset}/profile.'
            : 'The form has more than one file: send one track file per request.',
        ),
      ),
    );
    parser.on('fieldsLimit', () =>
      fail(
        new InvalidRequestError(`The form has too many fields: one file and at most ${MAX_FIELDS} fields.`),
      ),
    );
    parser.on('error', (error: Error) =>
      reject(new InvalidRequestError(`Invalid multipart/form-data request: ${error.message}.`)),
    );
    parser.on('close', () => (failure ? reject(failure) : resolve(form)));
    parser.end(body);
  });
}

/** Request options from the query string and the form's fields; one given in both is a 400, not a guess. */
export function formOptions(
  query: Readonly<Record<string, string | undefined>>,
  fields: Readonly<Record<string, string>>,
): Record<string, string | undefined> {
  const both = Object.keys(fields).find((name) => Object.hasOwn(query, name) && query[name] !== undefined);
  if (both !== undefined) {
    throw new InvalidRequestError(
      `Parameter '${both}' is given both in the query string and as a form field; give it once.`,
    );
  }
  return { ...query, ...fields };
}

/**
 * A form file's name as the user's file is named. Browsers (the HTML standard's multipart encoding) and fetch's
 * FormData write `"`, LF and CR in it as `%22`, `%0A`, `%0D`: undone, or the answer to `Wanderung "neu".gpx` was
 * named `Wanderung %22neu%22.gpx`.
 */
function uploadName(filename: string | undefined): string | null {
  if (!filename) return null;
  return filename.replace(/%(22|0A|0D)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * `Content-Disposition` for an answer to a named upload, so a browser or `curl -OJ` saves it under the same
 * name: an ASCII fallback (RFC 6266) and the exact name as UTF-8 (RFC 8187).
 */
export function attachmentHeader(filename: string): string {
  const name = boundedName(filename);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/gu, '_'); // u: one '_' per character, not per UTF-16 unit
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRFC8187(name)}`;
}

/**
 * Longest name an answer carries, in characters: a 6,000-character upload name made a 12 KB header (two copies,
 * one percent-encoded), over what many proxies and API Gateway's 10 KB limit for request headers suggest. File
 * systems take 255 bytes.
 */
export const MAX_ATTACHMENT_NAME_CHARS = 120;

/** The name cut to MAX_ATTACHMENT_NAME_CHARS characters (code points), its extension kept. */
function boundedName(filename: string): string {
  const chars = Array.from(filename);
  if (chars.length <= MAX_ATTACHMENT_NAME_CHARS) return filename;
  const dot = filename.lastIndexOf('.');
  const extension = dot > 0 && filename.length - dot <= 10 ? Array.from(filename.slice(dot)) : [];
  return [...chars.slice(0, MAX_ATTACHMENT_NAME_CHARS - extension.length), ...extension].join('');
}

function encodeRFC8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
