// The reference computation of the truth (a chunked exact MALA run for targets without a closed
// form in d > 2), advanced in small time slices per frame. Narrow interface so it can move into a
// Web Worker: `tick(lab)` while the state says the truth is pending; `onText` reports progress,
// `onDone` fires once when the truth arrived.

const SLICE_MS = 6;
const STEPS_PER_CALL = 200;

export class TruthRunner {
  constructor({ guarded, onText, onDone }) {
    this.guarded = guarded;
    this.onText = onText;
    this.onDone = onDone;
  }

  /** Advance `lab`'s pending reference run within the frame's slice. */
  tick(lab) {
    const started = performance.now();
    let progress;
    while (performance.now() - started < SLICE_MS) {
      progress = this.guarded(() => JSON.parse(lab.advance_truth(STEPS_PER_CALL)));
      if (!progress || !progress.running) break;
    }
    if (!progress) return;
    this.onText(progress.text);
    if (!progress.running) this.onDone();
  }
}
