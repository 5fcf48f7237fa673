/**
 * The one page of `GET /app`: drop a track file and download it back with heights, see its profile chart and
 * summary, or type coordinates and see their heights. Plain HTML, CSS and JavaScript in one string: no build
 * step, no CDN, nothing fetched but this API (the CSP says so). The script avoids backticks and "${" so this
 * TypeScript template holds it verbatim.
 */
export const APP_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Elevation API</title>
<link rel="icon" href="data:,">
<style>
body { font-family: system-ui, sans-serif; max-width: 860px; margin: 1.5rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
#drop { border: 2px dashed #999; border-radius: 8px; padding: 1.5rem; text-align: center; }
#drop.over { border-color: #c0392b; background: #fdf2f0; }
.error { color: #b00020; } .muted { color: #666; }
table { border-collapse: collapse; } td, th { border-bottom: 1px solid #ddd; padding: 0.25rem 0.75rem; text-align: right; }
caption { text-align: left; color: #666; }
#chart-box { margin-top: 1rem; }
#chart { max-width: 100%; display: block; }
/* On a phone the 800 px chart would shrink its labels to ~5 px: shown at its size, scrolled sideways. */
@media (max-width: 600px) { #chart-box { overflow-x: auto; } #chart { max-width: none; width: 800px; } }
[hidden] { display: none !important; } /* #chart's display: block would otherwise show it while hidden */
textarea { width: 100%; box-sizing: border-box; font-family: monospace; }
#file-status, #download, #lookup-status { overflow-wrap: anywhere; } /* a long file name wraps, never widens the page */
</style>
</head>
<body>
<main>
<h1>Elevation API</h1>
<p><label for="dataset">Dataset</label> <select id="dataset"></select> <span id="datasets-note" class="muted" role="status"></span>
  <button id="datasets-retry" hidden>Try again</button></p>

<h2>A track file with heights</h2>
<div id="drop">
  <p><label for="file">Drop a KML, KMZ, GPX, TCX, GeoJSON, CSV or FIT file (or a .gz of one) here, or choose one:</label>
    <input type="file" id="file" accept=".kml,.kmz,.gpx,.tcx,.geojson,.json,.csv,.tsv,.txt,.fit,.gz"></p>
  <label><input type="checkbox" id="absolute"> KML: altitude mode absolute (Google Earth draws the heights)</label>
</div>
<p id="file-status" class="muted" role="status" aria-live="polite"></p>
<p><a id="download" hidden>Download</a></p>
<div id="summary" role="status" aria-live="polite"></div>
<div id="chart-box"><img id="chart" alt="" hidden></div>

<h2>Heights of coordinates</h2>
<p><label for="coordinates">One "latitude,longitude" per line, in decimal degrees (WGS84).</label></p>
<textarea id="coordinates" rows="4">48.742275,9.101177</textarea>
<p><button id="lookup">Get heights</button></p>
<p id="lookup-status" class="muted" role="status" aria-live="polite"></p>
<table id="heights"></table>
</main>

<script>
var $ = function (id) { return document.getElementById(id); };
// The API's routes beside this page's: under a path prefix (an API Gateway stage, a proxy's /elevation/app)
// they are there, not at the site's root.
var base = location.pathname.replace(/\\/app\\/?$/, '');
function dataset() { return encodeURIComponent($('dataset').value); }
function text(el, value, isError) { el.textContent = value; el.className = isError ? 'error' : 'muted'; }
async function errorOf(response) {
  // Over HTTP/2 (API Gateway) there is no status text: the status code is named instead.
  var fallback = 'The API answered ' + response.status + (response.statusText ? ' ' + response.statusText : '') + '.';
  try { return (await response.json()).error || fallback; } catch (e) { return fallback; }
}

var datasets = {};
function listDatasets() {
  text($('datasets-note'), 'listing datasets…');
  $('datasets-retry').hidden = true;
  fetch(base + '/v1/datasets').then(function (r) {
    if (!r.ok) throw new Error('the API answered ' + r.status);
    return r.json();
  }).then(function (body) {
    $('dataset').textContent = '';
    body.results.forEach(function (d) {
      datasets[d.name] = d;
      var option = document.createElement('option');
      option.value = option.textContent = d.name;
      $('dataset').appendChild(option);
    });
    text($('datasets-note'), '');
  }).catch(function (e) {
    text($('datasets-note'), 'Could not list the datasets (' + e.message + ').', true);
    $('datasets-retry').hidden = false;
  });
}
$('datasets-retry').addEventListener('click', listDatasets);
listDatasets();
/** A message when no dataset can be asked (the list failed), else null. */
function noDataset() {
  return $('dataset').value ? null : 'No dataset to ask: the list of datasets could not be loaded (try again above).';
}

// What the last file showed is cleared before the next is read, so a file that fails never leaves the previous
// file's download, summary or chart on the page as if they were its own; a file dropped while another is still
// being answered wins (the earlier one's answers are dropped).
var shown = { urls: [], file: 0, last: null };
function clearResults() {
  shown.urls.forEach(function (u) { URL.revokeObjectURL(u); });
  shown.urls = [];
  $('download').hidden = true; $('download').removeAttribute('href');
  text($('summary'), ''); $('chart').hidden = true; $('chart').removeAttribute('src'); $('chart').alt = '';
}
function objectUrl(blob) { var u = URL.createObjectURL(blob); shown.urls.push(u); return u; }

async function processFile(file, note) {
  var mine = ++shown.file;
  var current = function () { return mine === shown.file; };
  shown.last = file;
  clearResults();
  var missing = noDataset();
  if (missing) { text($('file-status'), missing, true); return; }
  text($('file-status'), 'Reading ' + file.name + '…' + (note || ''));
  try {
    await fillAndChart(file, current, note || '');
  } catch (e) {
    if (current()) text($('file-status'), file.name + ': the API could not be reached (' + e.message + ').', true);
  }
}

/** The download's name: the upload's with "-heights" before its extension, short enough for any file system. */
function downloadName(name) {
  var match = /^(.*?)((\\.[^.]+)?(\\.gz)?)$/i.exec(name);
  return match[1].slice(0, 200) + '-heights' + match[2].slice(0, 20);
}

async function fillAndChart(file, current, note) {
  var bytes = await file.arrayBuffer();
  var post = function (path) {
    return fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  };
  var name = $('dataset').value;
  var query = $('absolute').checked ? '?altitude_mode=absolute' : '';
  var filled = await post('/v1/' + dataset() + '/file' + query);
  if (!current()) return;
  if (!filled.ok) { text($('file-status'), file.name + ': ' + (await errorOf(filled)) + note, true); return; }
  var counts = ['coordinates', 'filled', 'nodata', 'kept'].map(function (k) {
    return Number(filled.headers.get('x-elevation-' + k));
  });
  var blob = await filled.blob();
  if (!current()) return;
  var link = $('download');
  link.href = objectUrl(blob);
  link.download = downloadName(file.name);
  link.textContent = 'Download ' + link.download;
  link.hidden = false;
  text($('file-status'), file.name + ': ' + counts[1] + ' of ' + counts[0] + ' coordinates filled, ' + counts[2] +
    ' without data' + (counts[3] ? ', ' + counts[3] + ' kept as they were' : '') + '.' + note);
  var profile = await post('/v1/' + dataset() + '/profile?samples=200');
  if (!current()) return;
  if (!profile.ok) { text($('summary'), 'Profile: ' + (await errorOf(profile)), true); return; }
  var s = (await profile.json()).summary;
  if (!current()) return;
  var line = 'Profile along the track, sampled at ' + s.samples + ' evenly spaced points: length ' +
    (s.length / 1000).toFixed(2) + ' km · ascent ' + Math.round(s.ascent) + ' m · descent ' +
    Math.round(s.descent) + ' m · lowest ' + metres(s.min) + ' · highest ' + metres(s.max) +
    (s.nodata ? ' · ' + s.nodata + ' of the ' + s.samples + ' samples without data' : '');
  text($('summary'), line);
  var svg = await post('/v1/' + dataset() + '/profile?samples=200&format=svg');
  if (!current() || !svg.ok) return;
  var chart = await svg.blob();
  if (!current()) return;
  $('chart').src = objectUrl(chart); $('chart').alt = 'Elevation profile chart. ' + line; $('chart').hidden = false;
}
function metres(point) { return point ? point.elevation.toFixed(1) + ' m' : '–'; }
/** One file at a time: the first is read, the page says which others were not. */
function takeFiles(files) {
  if (!files || !files.length) return;
  var others = Array.prototype.slice.call(files, 1).map(function (f) { return f.name; });
  processFile(files[0], others.length ? ' (One file at a time: ' + others.join(', ') + ' not read.)' : '');
}
// Choosing the same file again reads it again (a browser fires no change for an unchanged choice).
$('file').addEventListener('click', function () { this.value = ''; });
$('file').addEventListener('change', function () { takeFiles(this.files); });
// The option changes the answer: the last file is read again with it.
$('absolute').addEventListener('change', function () { if (shown.last) processFile(shown.last); });
var drop = $('drop');
// A file dropped anywhere on the page is read; the browser would otherwise open it in place of the page.
document.addEventListener('dragover', function (e) { e.preventDefault(); drop.classList.add('over'); });
document.addEventListener('dragleave', function (e) { if (!e.relatedTarget) drop.classList.remove('over'); });
document.addEventListener('drop', function (e) {
  e.preventDefault(); drop.classList.remove('over');
  $('file').value = ''; // the chooser must not name another file than the one shown
  takeFiles(e.dataTransfer.files);
});

/** The typed lines as /v1 locations, or a message naming the first line that is not a coordinate pair. */
function typedLocations(value) {
  var locations = [];
  var lines = value.split(/\\r?\\n/);
  for (var i = 0; i < lines.length; i++) {
    var line = lines[i].trim();
    if (!line) continue;
    if (/^enc:/.test(line)) { locations.push(line); continue; } // a Google polyline, as /v1 reads it
    var parts = line.split('|');
    for (var j = 0; j < parts.length; j++) {
      var pair = /^([-+]?\\d+(?:\\.\\d+)?)\\s*(?:,|\\s)\\s*([-+]?\\d+(?:\\.\\d+)?)$/.exec(parts[j].trim());
      if (!pair) {
        return { error: 'Line ' + (i + 1) + ' ("' + line.slice(0, 60) + '") is not "latitude,longitude" in decimal ' +
          'degrees with a point, like 48.742275,9.101177.' };
      }
      locations.push(pair[1] + ',' + pair[2]);
    }
  }
  return locations.length ? { locations: locations } : { error: 'Type a coordinate first: one "latitude,longitude" per line.' };
}
/** Whether a point without data would be inside the dataset with latitude and longitude swapped. */
function swappedInside(name, lat, lng) {
  var b = datasets[name] && datasets[name].bounds;
  var inside = function (y, x) { return b && x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3]; };
  return !inside(lat, lng) && inside(lng, lat);
}

var lookups = 0;
$('lookup').addEventListener('click', async function () {
  var mine = ++lookups;
  var current = function () { return mine === lookups; };
  var table = $('heights');
  var status = $('lookup-status');
  table.textContent = '';
  var typed = typedLocations($('coordinates').value);
  var missing = noDataset();
  if (missing || typed.error) { text(status, missing || typed.error, true); return; }
  var name = $('dataset').value;
  text(status, 'Asking dataset ' + name + '…');
  var response;
  try {
    response = await fetch(base + '/v1/' + dataset() + '?locations=' + encodeURIComponent(typed.locations.join('|')));
  } catch (e) {
    if (current()) text(status, 'The API could not be reached (' + e.message + ').', true);
    return;
  }
  if (!current()) return;
  if (!response.ok) { var error = await errorOf(response); if (current()) text(status, error, true); return; }
  var results = (await response.json()).results;
  if (!current()) return; // a later click's answer is the one shown, once
  table.textContent = '';
  table.createCaption().textContent = 'Heights in dataset ' + name;
  var head = table.createTHead().insertRow();
  ['latitude', 'longitude', 'elevation (m)'].forEach(function (h) {
    var th = document.createElement('th'); th.scope = 'col'; th.textContent = h; head.appendChild(th);
  });
  var rows = table.createTBody();
  var swapped = 0;
  results.forEach(function (r) {
    var row = rows.insertRow();
    var none = r.elevation === null;
    var hint = none && swappedInside(name, r.location.lat, r.location.lng);
    if (hint) swapped++;
    [r.location.lat, r.location.lng, none ? (hint ? 'no data (swapped?)' : 'no data') : r.elevation].forEach(function (v) {
      row.insertCell().textContent = v;
    });
  });
  text(status, results.length + (results.length === 1 ? ' point' : ' points') +
    (swapped ? '; ' + swapped + ' without data would lie in the dataset with latitude and longitude swapped: ' +
      'type latitude first.' : '.'), swapped > 0);
});
</script>
</body>
</html>
`;
