// Issue 26, stop 52 (items 5 and 6 of the reviewer's list): sentences that name what is not on
// screen. OSGFS step 1 and the osgfs-burn-in preset spoke of a "hollow point at the edge" the plot
// never draws; SGHMC step 4 asked the student to move β̂ to 0.05 without saying that β̂ > κ is why
// the long axis collapses, and the note beside β̂ then offered two remedies.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, screenshot, showPreset, frames } from './harness.mjs';

const env = useBrowser();

test('OSGFS burn-in: the note and step 1 name no marker the plot does not draw', async () => {
  const { PRESETS } = await import('../../www/presets.js');
  const { LESSONS } = await import('../../www/lesson-table.js');
  const { page, errors } = await openApp(env.browser, env.server.url, '', { viewport: { width: 1400, height: 900 } });
  const preset = PRESETS.find((p) => p.id === 'osgfs-burn-in');
  await showPreset(page, preset);
  await frames(page, 60);
  await screenshot(page, 'osgfs-burn-in-start');
  const step1 = LESSONS.find((l) => l.id === 'osgfs').steps[0];
  for (const [where, text] of [['preset', preset.text], ['lesson step 1', step1.text]]) {
    assert.doesNotMatch(text, /hollow/, `${where} speaks of a hollow point the plot does not draw`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
