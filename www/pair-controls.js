// Which two coordinates the 2-D panel shows (targets with more than two parameters): two selects
// and the "most correlated" / "largest difference" presets.

import { $, app } from './app.js';
import { guarded } from './errors.js';

/** The refusal of one coordinate on both axes, naming the controls that fix it. */
const SAME_PAIR = 'x and y show the same coordinate: choose two different coordinates in the x and y selectors.';

/** Remove the refusal once its cause is gone (two different coordinates, or no selectors). */
function clearPairMessage() {
  if ($('status').textContent === SAME_PAIR) $('status').textContent = '';
}

/** Show the pair selectors for `state` (hidden in 2-D). */
export function showPairControls(state) {
  const box = $('pair-controls');
  box.hidden = state.dim <= 2;
  // A refused choice has no cause left once the selectors vanish (a 2-D target) or show the
  // chain's pair again (below: they do when neither has the focus).
  if (box.hidden || ![$('pair-x'), $('pair-y')].includes(document.activeElement)) clearPairMessage();
  if (box.hidden) return;
  for (const [id, index] of [['pair-x', 0], ['pair-y', 1]]) {
    const select = $(id);
    if (select.options.length !== state.dim) {
      select.replaceChildren(...state.names.map((name, k) => new Option(name, String(k))));
    }
    if (document.activeElement !== select) select.value = String(state.pair[index]);
  }
}

/** Wire the selectors and presets to `setPair` (chain.js's, handed in by start-up so that this
 * module never imports chain.js). */
export function wirePairControls({ setPair }) {
  const change = () => {
    const [i, j] = [Number($('pair-x').value), Number($('pair-y').value)];
    if (i === j) { $('status').textContent = SAME_PAIR; return; }
    clearPairMessage();
    setPair(i, j);
  };
  // Leaving a selector shows the chain's pair again at once (also while paused, when no frame redraws).
  const resync = () => { if (app.lab) guarded(() => showPairControls(JSON.parse(app.lab.state_json()))); };
  for (const id of ['pair-x', 'pair-y']) {
    $(id).addEventListener('change', change);
    $(id).addEventListener('blur', resync);
  }
  for (const [id, kind] of [['pair-correlated', 'most_correlated'], ['pair-difference', 'largest_difference']]) {
    $(id).addEventListener('click', () => {
      const pair = guarded(() => app.lab.preset_pair(kind));
      if (pair) { clearPairMessage(); setPair(pair[0], pair[1]); }
    });
  }
}
