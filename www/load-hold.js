// While a preset or lesson step loads over several frames (chain.js `rebuildLabInSteps`), the
// chains on screen are the previous step's: the controls that would act on them (parameter
// sliders, Step, Reset, Discard, Slow motion, the rewind scrubber) are disabled visibly until the new chains are shown, so that no
// slider moved in that window changes a chain about to be replaced (issue 26). Play/Pause stays
// live: it sets what the page does once the load ends (the user's choice wins over the preset's).

import { $, app } from './app.js';

/** The parameter groups (divs and fieldsets) made inert during a load. */
const GROUPS = ['primary-params', 'sampler-params', 'target-params', 'analysis-params', 'compare-primary', 'compare-params'];
/** The run buttons that act on the chain shown. */
const BUTTONS = ['step', 'reset', 'discard', 'slow-motion'];

/** Hold (true) or release (false) the chain's controls; `app.loadingInSteps` says which. */
export function holdControls(hold) {
  app.loadingInSteps = hold;
  for (const id of GROUPS) {
    const group = $(id);
    if (!group) continue;
    group.inert = hold;
    group.classList.toggle('held', hold);
    if (hold) group.setAttribute('aria-busy', 'true');
    else group.removeAttribute('aria-busy');
  }
  for (const id of BUTTONS) {
    const button = $(id);
    if (button) button.disabled = hold;
  }
  const scrubber = $('rewind');
  if (scrubber) scrubber.disabled = hold;
}
