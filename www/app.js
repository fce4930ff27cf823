// The page's shared state: which target and sampler are chosen, the parameters the user (or the
// link, a preset or a lesson) set explicitly, the live chain, and layout settings. Every other
// module reads and changes it through the functions of its own concern.

export const $ = (id) => document.getElementById(id);

export const app = {
  registry: null,
  /** The main chain (a wasm `Lab`) and its three-layer 2-D panel. */
  lab: null,
  panel: null,
  target: 'gaussian',
  sampler: 'sgld',
  /**
   * Parameters set explicitly, target's and sampler's: only these go to the chain (the others
   * take target-derived defaults there) and into the link.
   */
  explicit: {},
  seed: 1,
  speed: 20,
  playing: false,
  /** Paused by a divergence while playing: play resumes with the next chain that has not diverged (www/view.js). */
  resumeAfterDivergence: false,
  /** The parameter whose slider moved last on this chain (www/parameters.js points from it to a warning elsewhere). */
  lastMoved: null,
  frameTimes: [],
  chartsDrawnAt: 0,
  /** Slow motion (SGLD, SGHMC, SGFS): the latest step's parts and how much of them is drawn. */
  slowMotion: false,
  stepParts: null,
  stepProgress: undefined,
  /** The pixel the current point is being dragged to, or null. */
  dragPixel: null,
  /** Progress along the newest path piece while animating a bouncy sampler, or undefined. */
  pieceProgress: undefined,
  truthPending: false,
  dead: false,
  upload: null,
  layout: { font: 'normal' },
  analysis: null,
  /** "Run 4 chains" (www/multichain.js). */
  multichain: null,
  compare: null,
  /** The lesson panel's handle (live claim check), once wired. */
  lessons: null,
  sgais: null,
  /** The controls of the main chain's parameters (ParamSet) and their mirror by the analysis charts. */
  params: null,
  mirror: null,
  /** A pair preset waiting for the truth (most_correlated, largest_difference). */
  pendingPair: null,
  /** Compare-mode settings read from the link, applied once the page is built. */
  urlCompare: null,
};

/** The registry entry of a target or sampler. */
export function specsOf(kind, name) {
  return app.registry[kind].find((e) => e.name === name);
}

/** The entries of `values` that are parameters of `spec`. */
export function pick(values, spec) {
  return Object.fromEntries(spec.params.filter((p) => p.name in values).map((p) => [p.name, values[p.name]]));
}

/** The parameters of the chosen target and sampler, sampler's first. */
export function currentSpecs() {
  return [...specsOf('samplers', app.sampler).params, ...specsOf('targets', app.target).params];
}

/** Whether `name` is a parameter of the chosen target (changing it rebuilds the chain). */
export function isTargetParam(name) {
  return specsOf('targets', app.target).params.some((p) => p.name === name);
}

