// A node:test reporter for the browser phase (scripts/test.sh; issue 23, BENCHMARKS.md "CI time,
// seventeenth round"): per test file, its tests' count and test-seconds (the sum of its top-level
// tests' durations) and its slowest test, largest first, then the phase's total. node --test's TAP
// names no file, so until now every round rebuilt this table by matching test names to files.
// Test-seconds, not wall: at --test-concurrency=2 two files share the two cores, and a file's own
// wall is not reported. Usage, beside the TAP reporter:
//   node --test --test-reporter=tap --test-reporter-destination=stdout \
//     --test-reporter=./tests/e2e/file-times.mjs --test-reporter-destination=FILE tests/e2e/

import { relative } from 'node:path';

/** Per-file totals from node:test's events: Map(file → { tests, seconds, failed, slowest: { name, seconds } }). */
export function fileTimes(events) {
  const files = new Map();
  for (const { type, data } of events) {
    if ((type !== 'test:pass' && type !== 'test:fail') || data.nesting !== 0) continue;
    const seconds = (data.details?.duration_ms ?? 0) / 1000;
    const file = files.get(data.file) ?? { tests: 0, seconds: 0, failed: 0, slowest: { name: '', seconds: -1 } };
    file.tests += 1;
    file.seconds += seconds;
    if (type === 'test:fail') file.failed += 1;
    if (seconds > file.slowest.seconds) file.slowest = { name: data.name, seconds };
    files.set(data.file, file);
  }
  return files;
}

/** The table: one line per file, largest test-seconds first, then the total. */
export function fileTimesTable(files, root = process.cwd()) {
  const rows = [...files].sort((a, b) => b[1].seconds - a[1].seconds);
  const total = rows.reduce((sum, [, f]) => sum + f.seconds, 0);
  const tests = rows.reduce((sum, [, f]) => sum + f.tests, 0);
  const lines = ['test-s  tests  file  (slowest test, s)'];
  for (const [path, f] of rows) {
    const name = path ? relative(root, path) : '(no file)';
    const failed = f.failed ? `, ${f.failed} failed` : '';
    lines.push(`${f.seconds.toFixed(1).padStart(6)}  ${String(f.tests).padStart(5)}  ${name}${failed}  (${f.slowest.name.slice(0, 80)}: ${f.slowest.seconds.toFixed(1)})`);
  }
  lines.push(`${total.toFixed(1).padStart(6)}  ${String(tests).padStart(5)}  all ${rows.length} files`);
  return `${lines.join('\n')}\n`;
}

export default async function* fileTimesReporter(source) {
  const events = [];
  for await (const event of source) if (event.data?.nesting === 0 && (event.type === 'test:pass' || event.type === 'test:fail')) events.push(event);
  yield fileTimesTable(fileTimes(events));
}
