// The browser phase's per-file table (tests/e2e/file-times.mjs, scripts/test.sh): hand-made
// node:test events, the sums worked out here. No browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileTimes, fileTimesTable } from './file-times.mjs';

const event = (type, file, name, ms, nesting = 0) => ({ type, data: { file, name, nesting, details: { duration_ms: ms } } });

test('per file: top-level tests counted and summed, subtests and other events left out, largest file first', () => {
  const events = [
    event('test:pass', '/r/tests/e2e/a.test.mjs', 'a one', 1_500),
    event('test:pass', '/r/tests/e2e/a.test.mjs', 'a sub', 9_000, 1),
    event('test:fail', '/r/tests/e2e/a.test.mjs', 'a two', 2_200),
    event('test:pass', '/r/tests/e2e/b.test.mjs', 'b slow', 7_000),
    event('test:pass', '/r/tests/e2e/b.test.mjs', 'b fast', 100),
    { type: 'test:diagnostic', data: { file: '/r/tests/e2e/b.test.mjs', nesting: 0, message: 'tests 2' } },
  ];
  const files = fileTimes(events);
  assert.deepEqual(files.get('/r/tests/e2e/a.test.mjs'), { tests: 2, seconds: 3.7, failed: 1, slowest: { name: 'a two', seconds: 2.2 } });
  assert.deepEqual(files.get('/r/tests/e2e/b.test.mjs'), { tests: 2, seconds: 7.1, failed: 0, slowest: { name: 'b slow', seconds: 7 } });
  const lines = fileTimesTable(files, '/r').trim().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[1], /^\s+7\.1\s+2\s+tests\/e2e\/b\.test\.mjs\s+\(b slow: 7\.0\)$/);
  assert.match(lines[2], /^\s+3\.7\s+2\s+tests\/e2e\/a\.test\.mjs, 1 failed\s+\(a two: 2\.2\)$/);
  assert.match(lines[3], /^\s+10\.8\s+4\s+all 2 files$/);
});
