/** The Prometheus recording and alert rules pass promtool (Debian's prometheus package; CI installs it). */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';

describeIfAvailable(
  'Prometheus recording and SLO alert rules',
  [{ what: 'promtool (Debian prometheus)', available: hasCommand('promtool') }],
  () => {
    it('pass promtool check rules and the promtool rule unit tests (needs Debian prometheus)', () => {
      const out = execFileSync(
        'bash',
        [path.join(__dirname, '..', '..', 'scripts', 'dashboards', 'check-rules.sh')],
        {
          encoding: 'utf8',
        },
      );
      expect(out).toMatch(
        /SUCCESS: 6 rules found[\s\S]*SUCCESS: 2 rules found[\s\S]*Unit Testing[\s\S]*SUCCESS/,
      );
    });
  },
);
