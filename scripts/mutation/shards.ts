/**
 * The shards of `npm run test:mutation` (scripts/mutation/run.ts): groups of layers/elevation's files, each run
 * and kept (test/mutation/<shard>.json) on its own. Every file StrykerJS mutates (stryker.config.mjs: all of
 * layers/elevation but types.ts and index.ts) is in exactly one; test/unit/mutation-shards.test.ts checks that.
 */
export const LIB = 'layers/elevation';

export const SHARDS: Record<string, string[]> = {
  geo: [`${LIB}/geo/**/*.ts`, `${LIB}/datum/**/*.ts`],
  request: [`${LIB}/request/**/*.ts`, `${LIB}/service/**/*.ts`, `${LIB}/errors.ts`],
  config: [`${LIB}/config/**/*.ts`],
  raster: [
    `${LIB}/raster/cog-raster.ts`,
    `${LIB}/raster/hgt-raster.ts`,
    `${LIB}/raster/gdal-nodata.ts`,
    `${LIB}/raster/gdal-metadata.ts`,
    `${LIB}/raster/header-source.ts`,
    `${LIB}/raster/raster.ts`,
  ],
  // The decoders: their mutants run the 189 partial-decode tests, the slowest shard per mutant.
  decode: [
    `${LIB}/raster/block-rows.ts`,
    `${LIB}/raster/resumable-inflate.ts`,
    `${LIB}/raster/resumable-lzw.ts`,
    `${LIB}/raster/predictor.ts`,
    `${LIB}/raster/lerc-block.ts`,
    `${LIB}/raster/bounded-decode.ts`,
    `${LIB}/raster/own-buffer.ts`,
  ],
  // The larger folders in two shards each: a shard's results are written only when it completes, so a shard
  // must finish in a sitting (about an hour on the 2-core machine).
  data: [
    `${LIB}/data/byte-source.ts`,
    `${LIB}/data/http-source.ts`,
    `${LIB}/data/s3-source.ts`,
    `${LIB}/data/file-source.ts`,
  ],
  cache: [
    `${LIB}/data/block-cache.ts`,
    `${LIB}/data/read-limiter.ts`,
    `${LIB}/data/folder-listing.ts`,
    `${LIB}/data/range-answer.ts`,
  ],
  // window-sampler.ts alone is ~500 mutants, each running the sampling tests: about an hour.
  sampler: [`${LIB}/dataset/window-sampler.ts`],
  mosaic: [
    `${LIB}/dataset/interpolation.ts`,
    `${LIB}/dataset/block-store.ts`,
    `${LIB}/dataset/mosaic.ts`,
    `${LIB}/dataset/multi-dataset.ts`,
    `${LIB}/dataset/wgs84-box.ts`,
  ],
  dataset: [
    `${LIB}/dataset/raster-dataset.ts`,
    `${LIB}/dataset/vrt-mosaic.ts`,
    `${LIB}/dataset/registry.ts`,
    `${LIB}/dataset/describe.ts`,
    `${LIB}/dataset/tile-names.ts`,
    `${LIB}/dataset/decimal-steps.ts`,
    `${LIB}/dataset/tile-index.ts`,
    `${LIB}/dataset/raster-opener.ts`,
    `${LIB}/dataset/sidecar.ts`,
  ],
  track: [
    `${LIB}/track/kml.ts`,
    `${LIB}/track/kmz.ts`,
    `${LIB}/track/gzip-file.ts`,
    `${LIB}/track/fit.ts`,
    `${LIB}/track/fit-heights.ts`,
    `${LIB}/track/zip-directory.ts`,
    `${LIB}/track/gpx.ts`,
    `${LIB}/track/tcx.ts`,
    `${LIB}/track/geojson.ts`,
    `${LIB}/track/geojson-crs.ts`,
    `${LIB}/track/csv.ts`,
    `${LIB}/track/xml-scan.ts`,
  ],
  fill: [
    `${LIB}/track/fill-heights.ts`,
    `${LIB}/track/height-slot.ts`,
    `${LIB}/track/text-edits.ts`,
    `${LIB}/track/track-text.ts`,
    `${LIB}/track/coordinate-text.ts`,
    `${LIB}/track/file-options.ts`,
    `${LIB}/track/track-format.ts`,
    `${LIB}/track/text-encoding.ts`,
    `${LIB}/track/parsed-track.ts`,
  ],
  profile: [`${LIB}/profile/**/*.ts`, `${LIB}/google/**/*.ts`],
};
