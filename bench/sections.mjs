// BENCHMARKS.md sections written by different bench scripts: `make bench` (bench/bench.mjs)
// rewrites the file but keeps the "## SGAIS defaults" section that bench/sgais-defaults.mjs writes.

/** The section that starts with `heading` (a "## …" line), up to the next "## " heading; or null. */
export function extractSection(text, heading) {
  const start = text.indexOf(heading);
  if (start < 0) return null;
  const rest = text.slice(start + heading.length);
  const end = rest.search(/\n## /);
  return (end < 0 ? text.slice(start) : text.slice(start, start + heading.length + end)).trimEnd();
}

/** Replace the section that starts with `heading` by `section`, or append it. */
export function replaceSection(text, heading, section) {
  const old = extractSection(text, heading);
  if (old === null) return `${text.trimEnd()}\n\n${section.trimEnd()}\n`;
  return text.replace(old, section.trimEnd());
}
