// What counts as a seed, wherever one is typed: the seed box (www/seed.js) and a shared link's
// `seed=` (www/url-state.js) read it with this one rule, so a seed a link carries is exactly a seed
// the box accepts (a leaf module: it imports nothing).

/** The seed in `text`, or null unless it is a whole number ≥ 0 written in digits (no sign,
 * exponent, hex or fraction; surrounding spaces allowed; an empty text is not a seed). */
export function parseSeed(text) {
  const trimmed = String(text).trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}
