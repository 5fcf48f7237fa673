/**
 * `GET /app` in a real browser: Debian's headless Chromium driven by playwright-core (no browser download),
 * against serverless-offline. Uploads a KML with 0 m heights, downloads the answer through the page's link and
 * checks its heights against /v1, checks the profile chart and summary, and looks up typed coordinates.
 * Without Chromium it skips with a message locally and fails under CI=true.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readFitMessages } from 'fit-file-parser';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/report/chromium';
import { fitFile } from '../support/fit-files';
import { startStack, type Stack } from './support/stack';

const FIXTURES = path.resolve(__dirname, '../fixtures/tracks');
const HAS_CHROMIUM = existsSync(CHROMIUM);

/** The DOM the page functions below touch. */
interface PageGlobals {
  document: {
    getElementById(id: string): {
      complete: boolean;
      naturalWidth: number;
      naturalHeight: number;
      textContent: string | null;
      className: string;
      hidden: boolean;
    };
    querySelectorAll(selector: string): { length: number };
  };
}

async function v1(stack: Stack, locations: string[]): Promise<Map<string, number>> {
  const response = await fetch(
    `${stack.baseUrl}/v1/sample?locations=${encodeURIComponent(locations.join('|'))}`,
  );
  const body = (await response.json()) as { results: { elevation: number }[] };
  return new Map(locations.map((key, i) => [key, body.results[i].elevation]));
}

if (!HAS_CHROMIUM && process.env.CI !== 'true') {
  console.warn(`Browser test of /app skipped: ${CHROMIUM} is absent (apt-get install chromium).`);
  test('skips the /app browser test because Chromium is absent', () => {
    expect(HAS_CHROMIUM).toBe(false);
  });
} else {
  describe('/app in headless Chromium', () => {
    let stack: Stack;
    let browser: Browser;
    let page: Page;
    let cspErrors: string[] = [];

    beforeAll(async () => {
      if (!HAS_CHROMIUM) throw new Error(`CI=true but ${CHROMIUM} is absent: apt-get install chromium`);
      stack = await startStack({ env: { POWERTOOLS_LOG_LEVEL: 'WARN' } });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      page = await (await browser.newContext({ acceptDownloads: true })).newPage();
      await page.goto(`${stack.baseUrl}/app`);
      const csp: string[] = [];
      // Only the CSP's refusals: a 400 the page asked for (a refused file, below) is logged as an error too.
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) csp.push(m.text());
      });
      cspErrors = csp;
      await page.locator('#dataset option').first().waitFor({ state: 'attached' });
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await stack?.stop();
    });

    it('uploads a KML with 0 m heights and downloads it back with /v1 heights, byte for byte otherwise', async () => {
      // Before any file: no chart (an empty <img> showed its alt text while its CSS overrode `hidden`), no link.
      expect(await page.isHidden('#chart')).toBe(true);
      expect(await page.isHidden('#download')).toBe(true);
      await page.setInputFiles('#file', path.join(FIXTURES, 'google-earth.kml'));
      await page.waitForSelector('#download:not([hidden])');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      expect(download.suggestedFilename()).toBe('google-earth-heights.kml');
      const file = await download.path();
      const template = readFileSync(path.join(FIXTURES, 'google-earth.expected.kml'), 'utf8');
      const keys = [...new Set([...template.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]))];
      const heights = await v1(stack, keys);
      expect(readFileSync(file, 'utf8')).toBe(
        template.replace(/\{\{([^}]+)\}\}/g, (_, key: string) => String(heights.get(key))),
      );
      expect(await page.textContent('#file-status')).toBe(
        'google-earth.kml: 6 of 7 coordinates filled, 1 without data.',
      );
    });

    it('takes a gzip-compressed GPX and names the download as the upload, gzip-compressed too', async () => {
      await page.setInputFiles('#file', {
        name: 'activity.gpx.gz',
        mimeType: 'application/gzip',
        buffer: gzipSync(readFileSync(path.join(FIXTURES, 'garmin.gpx'))),
      });
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.getElementById('download').textContent ===
          'Download activity-heights.gpx.gz',
      );
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      expect(download.suggestedFilename()).toBe('activity-heights.gpx.gz');
      const template = readFileSync(path.join(FIXTURES, 'garmin.expected.gpx'), 'utf8');
      const keys = [...new Set([...template.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]))];
      const heights = await v1(stack, keys);
      expect(gunzipSync(readFileSync(await download.path())).toString('utf8')).toBe(
        template.replace(/\{\{([^}]+)\}\}/g, (_, key: string) => String(heights.get(key))),
      );
      // Put the KML back, so the chart and summary checks below read the first upload's profile.
      await page.setInputFiles('#file', path.join(FIXTURES, 'google-earth.kml'));
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.getElementById('download').textContent ===
          'Download google-earth-heights.kml',
      );
    });

    it('shows the profile chart and its summary', async () => {
      // Page functions run in the browser (under the page's CSP, which forbids string eval); this project's
      // TypeScript has no DOM types, so the little they touch is typed here.
      await page.locator('#chart:not([hidden])').waitFor();
      await page.waitForFunction(() => {
        const chart = (globalThis as unknown as PageGlobals).document.getElementById('chart');
        return chart.complete && chart.naturalWidth > 0;
      });
      const size = await page.evaluate(() => {
        const chart = (globalThis as unknown as PageGlobals).document.getElementById('chart');
        return [chart.naturalWidth, chart.naturalHeight];
      });
      expect(size).toEqual([800, 320]);
      expect(await page.textContent('#summary')).toMatch(
        /^Profile along the track, sampled at 200 evenly spaced points: length \d+\.\d\d km · ascent \d+ m · descent \d+ m · lowest [\d.]+ m · highest [\d.]+ m · 93 of the 200 samples without data$/,
      );
    });

    const RIDE: [number, number][] = [
      [48.7, 9.1],
      [48.72, 9.13],
      [48.75, 9.16],
      [48.78, 9.12],
    ];

    /** The summary line the page shows for this file, from /profile's own answer. */
    async function summaryLine(body: Buffer): Promise<string> {
      const response = await fetch(`${stack.baseUrl}/v1/sample/profile?samples=200`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body,
      });
      expect(response.status).toBe(200);
      const { summary: s } = (await response.json()) as {
        summary: {
          length: number;
          ascent: number;
          descent: number;
          min: { elevation: number };
          max: { elevation: number };
          samples: number;
          nodata: number;
        };
      };
      expect(s.nodata).toBe(0);
      return (
        `Profile along the track, sampled at ${s.samples} evenly spaced points: length ` +
        `${(s.length / 1000).toFixed(2)} km · ascent ${Math.round(s.ascent)} m · descent ` +
        `${Math.round(s.descent)} m · lowest ${s.min.elevation.toFixed(1)} m · highest ${s.max.elevation.toFixed(1)} m`
      );
    }

    async function chartShown(): Promise<void> {
      await page.waitForFunction(() => {
        const chart = (globalThis as unknown as PageGlobals).document.getElementById('chart');
        return !chart.hidden && chart.complete && chart.naturalWidth > 0;
      });
    }

    it.each([
      ['ride.fit', fitFile(RIDE), 'ride-heights.fit'],
      ['ride.fit.gz', gzipSync(fitFile(RIDE)), 'ride-heights.fit.gz'],
    ])(
      'takes a FIT file (%s): heights in its records to download, its profile and chart',
      async (name, buffer, download) => {
        await page.setInputFiles('#file', { name, mimeType: 'application/octet-stream', buffer });
        await page.waitForFunction(
          (text) =>
            (globalThis as unknown as PageGlobals).document.getElementById('download').textContent === text,
          `Download ${download}`,
        );
        expect(await page.textContent('#file-status')).toBe(
          `${name}: 4 of 4 coordinates filled, 0 without data.`,
        );
        const [saved] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
        expect(saved.suggestedFilename()).toBe(download);
        const bytes = readFileSync(await saved.path());
        const fit = name.endsWith('.gz') ? gunzipSync(bytes) : bytes;
        // fit-file-parser's strict reader checks both CRCs; every record has a height where it had none.
        const records = readFitMessages(fit, { messageNumbers: [20] }).messages;
        expect(records.map((m) => m.fields.some((f) => f.fieldNumber === 78))).toEqual([
          true,
          true,
          true,
          true,
        ]);
        await page.waitForFunction(
          () => (globalThis as unknown as PageGlobals).document.getElementById('summary').textContent !== '',
        ); // the profile is asked for after the file: wait for it
        expect(await page.textContent('#summary')).toBe(await summaryLine(buffer));
        await chartShown();
      },
    );

    it('clears the last file’s download, summary and chart when the next file is refused', async () => {
      await page.setInputFiles('#file', {
        name: 'broken.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from('<gpx><trk><trkseg><trkpt lat="48.7"'),
      });
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.getElementById('file-status').className === 'error',
      );
      expect(await page.textContent('#file-status')).toMatch(/^broken\.gpx: The file is not well-formed XML/);
      expect(await page.isHidden('#download')).toBe(true);
      expect(await page.isHidden('#chart')).toBe(true);
      expect(await page.textContent('#summary')).toBe('');
    });

    it('looks up typed coordinates', async () => {
      await page.fill('#coordinates', '48.742275,9.101177\n48.8,9.2');
      await page.click('#lookup');
      await page.waitForFunction(
        () => (globalThis as unknown as PageGlobals).document.querySelectorAll('#heights tr').length === 3,
      );
      const cells = (await page.locator('#heights tr td:last-child').allTextContents()).map(Number);
      const expected = await v1(stack, ['48.742275,9.101177', '48.8,9.2']);
      expect(cells).toEqual([...expected.values()]);
      // Everything the page used was allowed by its CSP (only this API, blob: images): nothing from elsewhere.
      expect(cspErrors).toEqual([]);
    });

    it('shows each typed point once however often the button is clicked, and the answer to the last text', async () => {
      await page.fill('#coordinates', '48.742275,9.101177\n48.8,9.2');
      await page.dblclick('#lookup');
      await page.fill('#coordinates', '48.7 9.1'); // a space between them is read as the comma
      await page.click('#lookup');
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.getElementById('lookup-status').textContent ===
          '1 point.',
      );
      expect(await page.locator('#heights tbody tr').count()).toBe(1);
      const cells = (await page.locator('#heights tbody td').allTextContents()).map(Number);
      expect(cells).toEqual([48.7, 9.1, (await v1(stack, ['48.7,9.1'])).get('48.7,9.1')]);
    });

    it.each([
      ['', 'Type a coordinate first: one "latitude,longitude" per line.'],
      [
        '48.7,9.1\n48,7;9,1',
        'Line 2 ("48,7;9,1") is not "latitude,longitude" in decimal degrees with a point, like 48.742275,9.101177.',
      ],
    ])(
      'says what is wrong with typed coordinates %j, in the status line, not as a row',
      async (typed, message) => {
        await page.fill('#coordinates', typed);
        await page.click('#lookup');
        await page.waitForFunction(
          () =>
            (globalThis as unknown as PageGlobals).document.getElementById('lookup-status').className ===
            'error',
        );
        expect(await page.textContent('#lookup-status')).toBe(message);
        expect(await page.locator('#heights tr').count()).toBe(0);
      },
    );

    it('hints at swapped coordinates where a point has no data but would with latitude and longitude swapped', async () => {
      await page.fill('#coordinates', '9.101177,48.742275\n10,10');
      await page.click('#lookup');
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelectorAll('#heights tbody tr').length === 2,
      );
      expect(await page.locator('#heights tbody td:last-child').allTextContents()).toEqual([
        'no data (swapped?)',
        'no data',
      ]);
      expect(await page.textContent('#lookup-status')).toBe(
        '2 points; 1 without data would lie in the dataset with latitude and longitude swapped: type latitude first.',
      );
    });

    it('reads the last file again when the KML option is ticked after it', async () => {
      await page.setInputFiles('#file', path.join(FIXTURES, 'google-earth.kml'));
      await page.waitForSelector('#download:not([hidden])');
      await page.check('#absolute');
      await page.waitForSelector('#download:not([hidden])');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      expect(readFileSync(await download.path(), 'utf8')).toContain('<altitudeMode>absolute</altitudeMode>');
      await page.uncheck('#absolute');
      await page.waitForSelector('#download:not([hidden])');
      const [plain] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
      expect(readFileSync(await plain.path(), 'utf8')).not.toContain('<altitudeMode>absolute</altitudeMode>');
    });

    it('says a file without data in the dataset got no heights, and offers no download of it unchanged', async () => {
      const gpx =
        '<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>' +
        '<trkpt lat="10" lon="10"/><trkpt lat="10.1" lon="10.1"/></trkseg></trk></gpx>';
      await page.setInputFiles('#file', {
        name: 'elsewhere.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(gpx),
      });
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.getElementById('file-status').className === 'error',
      );
      expect(await page.textContent('#file-status')).toBe(
        "elsewhere.gpx: No elevation data in dataset 'sample' at any of the GPX file's 2 coordinates, so none was " +
          "filled: check that they lie in the dataset's area (GET /v1/datasets gives its bounds) and that latitude " +
          'and longitude are not swapped.',
      );
      expect(await page.isHidden('#download')).toBe(true);
      expect(await page.isHidden('#chart')).toBe(true);
    });

    it('works under a path prefix (an API Gateway stage, a proxy): its requests go beside the page', async () => {
      const context = await browser.newContext();
      const seen: string[] = [];
      await context.route('http://gateway.test/**', async (route) => {
        const url = new URL(route.request().url());
        seen.push(url.pathname);
        const response = await route.fetch({
          url: `${stack.baseUrl}${url.pathname.replace(/^\/elevation/, '')}${url.search}`,
        });
        await route.fulfill({ response });
      });
      const prefixed = await context.newPage();
      try {
        await prefixed.goto('http://gateway.test/elevation/app');
        await prefixed.locator('#dataset option').first().waitFor({ state: 'attached' });
        await prefixed.fill('#coordinates', '48.742275,9.101177');
        await prefixed.click('#lookup');
        await prefixed.waitForFunction(
          () =>
            (globalThis as unknown as PageGlobals).document.querySelectorAll('#heights tbody tr').length ===
            1,
        );
        expect(seen).toEqual(['/elevation/app', '/elevation/v1/datasets', '/elevation/v1/sample']);
      } finally {
        await context.close();
      }
    });
  });
}
