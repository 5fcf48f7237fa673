/**
 * `GET /app` in a real browser: Debian's headless Chromium driven by playwright-core (no browser download),
 * against serverless-offline. Uploads a KML with 0 m heights, downloads the answer through the page's link and
 * checks its heights against /v1, checks the profile chart and summary, and looks up typed coordinates.
 * Without Chromium it skips with a message locally and fails under CI=true.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/report/chromium';
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
      page.on('console', (m) => m.type() === 'error' && csp.push(m.text()));
      cspErrors = csp;
      await page.locator('#dataset option').first().waitFor({ state: 'attached' });
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await stack?.stop();
    });

    it('uploads a KML with 0 m heights and downloads it back with /v1 heights, byte for byte otherwise', async () => {
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
      expect(await page.textContent('#file-status')).toBe('6 of 7 coordinates filled, 1 without data.');
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
        /^Length \d+\.\d\d km · ascent \d+ m · descent \d+ m · lowest [\d.]+ m · highest [\d.]+ m$/,
      );
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
  });
}
