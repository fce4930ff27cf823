// Which two coordinates the 2-D panel shows (targets with more than two parameters): two selects
// and the "most correlated" / "largest difference" presets.

import { $, app } from './app.js';
import { guarded } from './errors.js';

/** Show the pair selectors for `state` (hidden in 2-D). */
export function showPairControls(state) {
  const box = $('pair-controls');
  box.hidden = state.dim <= 2;
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
    if (i === j) { $('status').textContent = 'Choose two different coordinates.'; return; }
    setPair(i, j);
  };
  $('pair-x').addEventListener('change', change);
  $('pair-y').addEventListener('change', change);
  for (const [id, kind] of [['pair-correlated', 'most_correlated'], ['pair-difference', 'largest_difference']]) {
    $(id).addEventListener('click', () => {
      const pair = guarded(() => app.lab.preset_pair(kind));
      if (pair) setPair(pair[0], pair[1]);
    });
  }
}
