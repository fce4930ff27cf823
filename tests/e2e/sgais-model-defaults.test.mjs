// The SGAIS panel shows each model's own defaults (registry `sgais.defaults_by_model`,
// src/sgais/model_defaults.rs; docs/sgais.md §10): choosing the Gaussian mixture sets K = 20 SGHMC
// steps per temperature and lr = 0.1 on its sliders, says why in a line under them, and sends them
// to the workers; going back to linear regression restores K = 10 and lr = 0.02 and hides the line;
// a setting the user changed survives the model change. Expected values are the measured settings
// written here, not read from the registry. Waits are on state only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot } from './harness.mjs';

const env = useBrowser();

/** What the panel shows and what its next run would send to a worker. */
async function panelState(page) {
  return page.evaluate(() => {
    const text = (id) => document.getElementById(id).textContent.trim();
    const panel = window.sgviz.app.sgais;
    const sent = Object.fromEntries(panel.plan()[0].spec.settings);
    const note = document.getElementById('sgais-model-defaults');
    return {
      target: document.getElementById('sgais-target').value,
      shownK: text('sgais-burn_in_steps-value'),
      shownLr: text('sgais-learning_rate-value'),
      shownM: text('sgais-particles-value'),
      sent: { K: sent.burn_in_steps, lr: sent.learning_rate, M: sent.particles },
      note: note.hidden ? '' : note.textContent,
    };
  });
}

async function chooseModel(page, name) {
  await page.selectOption('#sgais-target', name);
  await page.waitForFunction((n) => window.sgviz.app.sgais.target === n, name, { timeout: 30_000 });
}

test('the SGAIS panel shows the mixture its own defaults and linear regression the global ones', async () => {
  const { page, errors } = await openApp(env.browser, env.server.url);
  await page.evaluate(() => { document.getElementById('sgais-settings').open = true; });
  const linreg = await panelState(page);
  assert.equal(linreg.target, 'linreg');
  assert.deepEqual([linreg.shownK, linreg.shownLr, linreg.sent.K, linreg.sent.lr], ['10', '0.02', '10', '0.02'], JSON.stringify(linreg));
  assert.equal(linreg.note, '', 'no per-model note for linear regression');

  await chooseModel(page, 'gmm');
  const gmm = await panelState(page);
  assert.deepEqual([gmm.shownK, gmm.shownLr, gmm.sent.K, gmm.sent.lr], ['20', '0.1', '20', '0.1'], JSON.stringify(gmm));
  assert.match(gmm.note, /K = 20 SGHMC steps per temperature and lr = 0\.1/);
  await page.$eval('#sgais-model-defaults', (e) => e.scrollIntoView({ block: 'center' }));
  await screenshot(page, 'sgais-model-defaults-gmm', { fullPage: false });

  await chooseModel(page, 'linreg');
  const back = await panelState(page);
  assert.deepEqual([back.shownK, back.shownLr, back.sent.K, back.sent.lr, back.note], ['10', '0.02', '10', '0.02', ''], JSON.stringify(back));

  // A changed setting (the M slider moved to M = 100 as a drag would: the position the page's own
  // slider mapping gives, then input and change events) stays across a model change, while the
  // settings the user did not touch follow the new model.
  await page.evaluate(async () => {
    const { sliderPosition } = await import('./www/controls.js');
    const spec = window.sgviz.app.sgais.sgais.params.find((p) => p.name === 'particles');
    const input = document.getElementById('sgais-particles');
    input.value = String(sliderPosition(spec, 100));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => window.sgviz.app.sgais.values.particles === 100, null, { timeout: 30_000 });
  await chooseModel(page, 'gmm');
  const kept = await panelState(page);
  assert.deepEqual([kept.shownM, kept.sent.M, kept.sent.K, kept.sent.lr], ['100', '100', '20', '0.1'], JSON.stringify(kept));
  assert.deepEqual(errors, []);
  await page.close();
});
