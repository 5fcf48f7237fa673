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
#chart { max-width: 100%; display: block; margin-top: 1rem; }
[hidden] { display: none !important; } /* #chart's display: block would otherwise show it while hidden */
textarea { width: 100%; font-family: monospace; }
</style>
</head>
<body>
<h1>Elevation API</h1>
<p>Dataset <select id="dataset"></select> <span class="muted" id="datasets-note"></span></p>

<h2>A track file with heights</h2>
<div id="drop">
  <p>Drop a KML, KMZ, GPX, TCX, GeoJSON, CSV or FIT file (or a .gz of one) here, or <input type="file" id="file" accept=".kml,.kmz,.gpx,.tcx,.geojson,.json,.csv,.tsv,.txt,.fit,.gz"></p>
  <label><input type="checkbox" id="absolute"> KML: altitude mode absolute (Google Earth draws the heights)</label>
</div>
<p id="file-status" class="muted"></p>
<p><a id="download" hidden>Download</a></p>
<div id="summary"></div>
<img id="chart" alt="Elevation profile" hidden>

<h2>Heights of coordinates</h2>
<p class="muted">One "latitude,longitude" per line.</p>
<textarea id="coordinates" rows="4">48.742275,9.101177</textarea>
<p><button id="lookup">Get heights</button></p>
<table id="heights"></table>

<script>
var $ = function (id) { return document.getElementById(id); };
function dataset() { return encodeURIComponent($('dataset').value); }
function text(el, value, isError) { el.textContent = value; el.className = isError ? 'error' : 'muted'; }
async function errorOf(response) {
  try { return (await response.json()).error || response.statusText; } catch (e) { return response.statusText; }
}

fetch('/v1/datasets').then(function (r) { return r.json(); }).then(function (body) {
  body.results.forEach(function (d) {
    var option = document.createElement('option');
    option.value = option.textContent = d.name;
    $('dataset').appendChild(option);
  });
}).catch(function () { text($('datasets-note'), 'could not list datasets', true); });

// What the last file showed is cleared before the next is read, so a file that fails never leaves the previous
// file's download, summary or chart on the page as if they were its own; a file dropped while another is still
// being answered wins (the earlier one's answers are dropped).
var shown = { urls: [], file: 0 };
function clearResults() {
  shown.urls.forEach(function (u) { URL.revokeObjectURL(u); });
  shown.urls = [];
  $('download').hidden = true; $('download').removeAttribute('href');
  text($('summary'), ''); $('chart').hidden = true; $('chart').removeAttribute('src');
}
function objectUrl(blob) { var u = URL.createObjectURL(blob); shown.urls.push(u); return u; }

async function processFile(file) {
  var mine = ++shown.file;
  var current = function () { return mine === shown.file; };
  clearResults();
  text($('file-status'), 'Reading ' + file.name + '…');
  try {
    await fillAndChart(file, current);
  } catch (e) {
    if (current()) text($('file-status'), 'The API could not be reached: ' + e.message, true);
  }
}

async function fillAndChart(file, current) {
  var bytes = await file.arrayBuffer();
  var post = function (path) {
    return fetch(path, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
  };
  var query = $('absolute').checked ? '?altitude_mode=absolute' : '';
  var filled = await post('/v1/' + dataset() + '/file' + query);
  if (!current()) return;
  if (!filled.ok) { text($('file-status'), await errorOf(filled), true); return; }
  var blob = await filled.blob();
  if (!current()) return;
  var link = $('download');
  link.href = objectUrl(blob);
  link.download = file.name.replace(/(\\.[^.]+(\\.gz)?)?$/i, function (ext) { return '-heights' + ext; });
  link.textContent = 'Download ' + link.download;
  link.hidden = false;
  text($('file-status'), filled.headers.get('x-elevation-filled') + ' of ' +
    filled.headers.get('x-elevation-coordinates') + ' coordinates filled, ' +
    filled.headers.get('x-elevation-nodata') + ' without data.');
  var profile = await post('/v1/' + dataset() + '/profile?samples=200');
  if (!current()) return;
  if (!profile.ok) { text($('summary'), await errorOf(profile), true); return; }
  var s = (await profile.json()).summary;
  if (!current()) return;
  $('summary').textContent = 'Length ' + (s.length / 1000).toFixed(2) + ' km · ascent ' + Math.round(s.ascent) +
    ' m · descent ' + Math.round(s.descent) + ' m · lowest ' + (s.min ? s.min.elevation : '–') + ' m · highest ' +
    (s.max ? s.max.elevation : '–') + ' m';
  var svg = await post('/v1/' + dataset() + '/profile?samples=200&format=svg');
  if (!current() || !svg.ok) return;
  var chart = await svg.blob();
  if (!current()) return;
  $('chart').src = objectUrl(chart); $('chart').hidden = false;
}

$('file').addEventListener('change', function () { if (this.files[0]) processFile(this.files[0]); });
var drop = $('drop');
drop.addEventListener('dragover', function (e) { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', function () { drop.classList.remove('over'); });
drop.addEventListener('drop', function (e) {
  e.preventDefault(); drop.classList.remove('over');
  if (e.dataTransfer.files[0]) processFile(e.dataTransfer.files[0]);
});

$('lookup').addEventListener('click', async function () {
  var locations = $('coordinates').value.split(/\\n+/).map(function (l) { return l.trim(); }).filter(Boolean).join('|');
  var table = $('heights');
  table.innerHTML = '<tr><th>latitude</th><th>longitude</th><th>elevation (m)</th></tr>';
  var failed = function (message) { var row = table.insertRow(); row.insertCell().textContent = message; };
  var response;
  try {
    response = await fetch('/v1/' + dataset() + '?locations=' + encodeURIComponent(locations));
  } catch (e) { failed('The API could not be reached: ' + e.message); return; }
  if (!response.ok) { failed(await errorOf(response)); return; }
  (await response.json()).results.forEach(function (r) {
    var row = table.insertRow();
    [r.location.lat, r.location.lng, r.elevation === null ? 'no data' : r.elevation].forEach(function (v) {
      row.insertCell().textContent = v;
    });
  });
});
</script>
</body>
</html>
`;
