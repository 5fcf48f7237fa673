// What `npm run report` needs before it starts: Prometheus answering (the data) and, for the PNGs, Debian's
// headless Chromium. Each missing piece is named with the one line that fixes it, instead of a stack trace
// halfway through.
import fs from 'node:fs';

export interface Prerequisites {
  prometheusUrl: string;
  prometheusAnswers: boolean;
  chromiumPath: string;
  chromiumPresent: boolean;
  wantPng: boolean;
}

/** One message per missing prerequisite; empty when the report can run. */
export function missingPrerequisites(p: Prerequisites): string[] {
  const missing: string[] = [];
  if (!p.prometheusAnswers) {
    missing.push(
      `Prometheus does not answer at ${p.prometheusUrl}: start the stack with \`npm run stack:up\` (or set PROMETHEUS_URL).`,
    );
  }
  if (p.wantPng && !p.chromiumPresent) {
    missing.push(
      `Chromium not found at ${p.chromiumPath}: install it with \`sudo apt-get install -y chromium\` (npm run stack:install does), set CHROMIUM_PATH, or pass --no-png.`,
    );
  }
  return missing;
}

export async function checkPrerequisites(
  prometheusUrl: string,
  chromiumPath: string,
  wantPng: boolean,
): Promise<string[]> {
  const prometheusAnswers = await fetch(new URL('/-/ready', prometheusUrl), {
    signal: AbortSignal.timeout(3000),
  }).then(
    (r) => r.ok,
    () => false,
  );
  let chromiumPresent = false;
  try {
    fs.accessSync(chromiumPath, fs.constants.X_OK);
    chromiumPresent = true;
  } catch {
    chromiumPresent = false;
  }
  return missingPrerequisites({ prometheusUrl, prometheusAnswers, chromiumPath, chromiumPresent, wantPng });
}
