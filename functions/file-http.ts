/** The HTTP edge of file requests: raw body bytes (base64 or text) under a byte limit, and file responses. */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  InvalidRequestError,
  PayloadTooLargeError,
  type FillReport,
  type FilledFile,
  CONTENT_TYPES,
} from '../layers/elevation';
import { corsHeaders, type Response } from './http';
import { base64DecodedBytes, textDamage } from './body-bytes';
import { attachmentHeader } from './form';

export function fileBytes(event: APIGatewayProxyEventV2, maxBytes: number): Uint8Array {
  if (!event.body) {
    throw new InvalidRequestError(
      'No file: send a KML, KMZ, GPX, TCX, GeoJSON, CSV or FIT file as the request body (curl --data-binary @track.kml).',
    );
  }
  // Checked before decoding, so an oversized body costs no copy: the decoded size of base64 text is 3 bytes per
  // 4 characters less its '=' padding (a file of exactly MAX_FILE_BYTES is accepted).
  const size = event.isBase64Encoded ? base64DecodedBytes(event.body) : Buffer.byteLength(event.body);
  if (size > maxBytes) {
    throw new PayloadTooLargeError(
      `The file is ${size} bytes; the limit is ${maxBytes} bytes (MAX_FILE_BYTES). Split the track into smaller files.`,
    );
  }
  if (event.isBase64Encoded) return Buffer.from(event.body, 'base64');
  const bytes = Buffer.from(event.body, 'utf8');
  const damaged = textDamage(bytes);
  if (damaged) {
    // serverless-offline base64-encodes a body only for application/octet-stream or multipart (API Gateway for
    // any non-text type).
    throw new InvalidRequestError(
      `The ${damaged} arrived as text and lost bytes on the way: send it with Content-Type: application/octet-stream.`,
    );
  }
  return bytes;
}

/** The counts clients read without parsing the file; exposed to browsers through CORS. */
export function reportHeaders(report: FillReport): Record<string, string> {
  return {
    'x-elevation-coordinates': String(report.coordinates),
    'x-elevation-filled': String(report.filled),
    'x-elevation-nodata': String(report.nodata),
    'x-elevation-kept': String(report.kept),
    'x-elevation-datasets': report.datasets.join(','),
    'access-control-expose-headers':
      'x-elevation-coordinates, x-elevation-filled, x-elevation-nodata, x-elevation-kept, x-elevation-datasets',
  };
}

/**
 * The filled file as the response: a KMZ, a FIT file, a gzip file (`application/gzip`, as it came), or text in another
 * encoding than UTF-8, goes base64-encoded (a Lambda response body is a JS string, which would carry it as UTF-8).
 * UTF-16 is labelled with its charset: `utf-16` beside a byte-order mark (which tells the order),
 * `utf-16le`/`utf-16be` without one. 8-bit text (`latin1`: its bytes as they came) is labelled only as CSV, which
 * cannot name its encoding, and whose `text/csv` would otherwise get serverless-offline's `charset=utf-8`:
 * `windows-1252`, what Excel writes (and what browsers read a `latin1` label as). An XML document's declaration
 * names its encoding, which an XML type without a charset leaves in force (RFC 7303).
 */
export function fileResponse(filled: FilledFile, corsOrigin: string | null): Response {
  const { bytes, report, encoding } = filled;
  const zipOrFit = filled.gzip || report.format === 'kmz' || report.format === 'fit';
  const binary = zipOrFit || encoding !== 'utf-8';
  const charset = zipOrFit ? '' : charsetOf(filled);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    statusCode: 200,
    headers: {
      'content-type': filled.gzip
        ? 'application/gzip'
        : CONTENT_TYPES[report.format] + (charset ? `; charset=${charset}` : ''),
      // Always a download: a browser shown an answered GPX or KML inline (a cross-site form can POST one) rendered
      // it as an XML document of this API's origin, scripts in the XHTML namespace included. A named upload
      // answers under its own name (functions/file.ts); the formats are named by their extensions.
      'content-disposition': attachmentHeader(`track.${report.format}${filled.gzip ? '.gz' : ''}`),
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
      ...corsHeaders(corsOrigin),
      ...reportHeaders(report),
    },
    body: binary ? buffer.toString('base64') : buffer.toString('utf8'),
    isBase64Encoded: binary,
  };
}

function charsetOf({ encoding, bom, report }: FilledFile): string {
  if (encoding === 'utf-8') return '';
  if (encoding === 'latin1') return report.format === 'csv' ? 'windows-1252' : '';
  return bom ? 'utf-16' : encoding;
}
