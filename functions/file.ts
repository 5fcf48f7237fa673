/**
 * `POST /v1/{dataset}/file`: a KML, KMZ, GPX, TCX, GeoJSON, CSV or FIT file in, the same file out with every height
 * filled from the dataset (or chain); counts in `x-elevation-*` headers, or as JSON with `report=json`.
 */
import {
  fillFileHeights,
  InvalidRequestError,
  nothingFilledMessage,
  parseFileOptions,
  type FillReport,
} from '../layers/elevation';
import { route } from './route';
import { decodePathParameter, formContentType, jsonResponse, rejectRepeatedParameters } from './http';
import { fileBytes, fileResponse, reportHeaders } from './file-http';
import { attachmentHeader, formFile, formOptions, OPTION_FIELD_BYTES, readForm } from './form';
import { heightConversion } from './geoids';
import { datasetFields } from './dataset-fields';

export const handler = route('file', ['POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const datasetSpec = decodePathParameter(event.pathParameters?.dataset ?? '');
  // A form upload (multipart/form-data) carries the file in a part, and may carry the options as fields.
  const formType = formContentType(event);
  const form =
    formType === null
      ? null
      : await readForm(event, formType, {
          maxFileBytes: app.settings.maxFileBytes,
          maxFieldBytes: OPTION_FIELD_BYTES,
        });
  rejectRepeatedParameters(event.rawQueryString); // API Gateway would join them: 'true,false'
  const query = event.queryStringParameters ?? {};
  const options = parseFileOptions(form ? formOptions(query, form.fields) : query);
  const dataset = app.registry.resolve(datasetSpec);
  const upload = form ? formFile(form) : null;
  const bytes = upload ? upload.bytes : fileBytes(event, app.settings.maxFileBytes);
  t.set({
    ...datasetFields(app.registry.names(), dataset.name),
    interpolation: options.interpolation,
    fileBytes: bytes.length,
  });
  const decided = (report: FillReport) => {
    t.set({
      points: report.coordinates,
      format: report.format,
      filled: report.filled,
      nodata: report.nodata,
    });
    // A download where nothing was filled would read as success; the counts (report=json) say it themselves.
    const nothing = options.reportOnly ? null : nothingFilledMessage(report, dataset.name);
    if (nothing !== null) throw new InvalidRequestError(nothing);
  };
  const filled = await fillFileHeights(
    bytes,
    dataset,
    { ...options, decided },
    { maxCoordinates: app.settings.maxFileCoordinates, maxUnzippedBytes: app.settings.maxKmzUnzippedBytes },
    ctx,
    heightConversion(app, options.datum, ctx),
  );
  const { report } = filled;
  if (options.reportOnly) {
    return jsonResponse(
      200,
      JSON.stringify({ status: 'OK', ...report }),
      app.corsOrigin,
      reportHeaders(report),
    );
  }
  const response = fileResponse(filled, app.corsOrigin);
  if (upload?.filename)
    response.headers = { ...response.headers, 'content-disposition': attachmentHeader(upload.filename) };
  return response;
});
