// How many steps a frame of play runs, as constants with no page behind them, so that what
// computes class time without a browser (tests/e2e/class-numbers.test.mjs, class-run.mjs) reads
// the page's own numbers (issue 23, ninth round): www/playback.js plays by them.

/** At or below this speed, bouncy samplers animate the particle along each path piece. */
export const ANIMATE_BELOW_SPEED = 3;
/** Frames spent travelling one path piece when animating. */
export const FRAMES_PER_PIECE = 12;
/** Seed of presets and lesson steps that do not name one: their claims are checked at it (www/preset-loader.js). */
export const PRESET_SEED = 1;
