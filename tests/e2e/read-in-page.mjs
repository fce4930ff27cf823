// Which lesson steps' and presets' claims `make test` reads in the page at class time (issue 23,
// tenth round): one list, read by the files that check them there (class-time.test.mjs,
// figures-B.test.mjs) and by tests/e2e/class-numbers.test.mjs, which computes the same claims
// without a browser for every other step and preset. On these the page's check is the stronger:
// the same claims, predicates and chain calls (class-numbers' values equal the page's to the last
// digit, BENCHMARKS.md "CI time, eighth round"), on the chains the page itself built from the
// step or preset, with the lesson panel's `data-ok` marks (or the page's own predicates for a
// preset); so class-numbers leaves them out instead of computing them a second time.

/**
 * `make test`'s steps whose claims, analysis figure and screenshots are read in the page: one per
 * lesson, each exercising a different part of the page's wiring — sgld 3 the noise chart (the
 * analysis worker, its ε marker), sgfs 1 a preset's most-correlated pair, sghmc 2 the trace
 * figure and what it asks to try, osgfs 1 a preset at 5 steps per frame, bps 5 a bouncy sampler
 * and its try, cost 2 compare mode at the same gradient budget (three claims, one of the compared
 * chain). Keys are `${lesson id} ${step number from 1}`.
 */
export const CLASS_TIME_STEPS = new Set(['sgld 3', 'sgfs 1', 'sghmc 2', 'osgfs 1', 'bps 5', 'cost 2']);
/** `make test`'s presets whose claims and screenshots are read in the page: compare mode and a pair, a held-out curve. */
export const CLASS_TIME_PRESETS = new Set(['sgfs-ellipses', 'sgld-heldout']);
/**
 * An SBPS figure whose main chain figures-B.test.mjs reads at class time in `make test`: one whose
 * picture is the chain (its 2-D panel) or its live band chart, not a scan chart.
 */
export const sbpsChainReadInPage = (figure) => !figure.scan;
