// "Run 4 chains" (issue 24): the convergence diagnostics users know from Stan and ArviZ, beside
// the truth-based E1/E2. Four chains of the current target, sampler, settings and data, from
// over-dispersed starts, as long as the run on screen, run in a Web Worker (the core is
// src/multichain.rs, marshalled by Lab.multichain_json); the page shows per coordinate the
// rank-normalised split-R̂, bulk and tail ESS and the mean ± its MCSE (Vehtari et al. 2021). When
// the setting changes the result is cleared and marked stale: it belonged to the earlier setting.

import { $, app } from './app.js';
import { cancelGroup, startJob } from './jobs.js';
import { userMessage } from './errors.js';
import { formatNumber } from './format.js';

/** Chains per run: Stan's and ArviZ's default. */
export const CHAINS = 4;
/** Fewest and most steps per chain (the run on screen may be shorter or much longer). */
const MIN_STEPS = 1_000;
const MAX_STEPS = 100_000;
/** R̂ above this: the chains disagree (Vehtari et al. 2021 §4.2 recommend 1.01). */
const RHAT_LIMIT = 1.01;

/** What the result depends on, besides the chain length. */
function settingKey() {
  const data = app.upload?.current();
  return JSON.stringify([app.target, app.sampler, app.seed, app.explicit, data ? [data.bytes.length, data.standardise] : null]);
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

export class MultichainPanel {
  constructor() {
    this.result = null;
    this.job = 0;
    this.key = '';
    $('multichain-run').addEventListener('click', () => this.run());
  }

  /** Steps per chain: as long as the run on screen, within [MIN_STEPS, MAX_STEPS]. */
  steps() {
    const steps = app.lab ? app.lab.timeline_position()[0] : 0;
    return Math.max(MIN_STEPS, Math.min(MAX_STEPS, Math.round(steps)));
  }

  run() {
    cancelGroup('multichain');
    const steps = this.steps();
    this.key = settingKey();
    this.result = { status: 'running', chains: CHAINS, steps, coordinates: [] };
    this.show();
    const payload = {
      kind: 'multichain', target: app.target, sampler: app.sampler, settings: { ...app.explicit }, seed: app.seed,
      data: app.upload?.current(), chains: CHAINS, steps,
    };
    const id = startJob(payload, {
      group: 'multichain',
      urgent: true, // the user pressed the button and waits: before every queued job (after the running one)
      onMessage: (message) => {
        if (id !== this.job) return;
        if (message.type === 'error') this.result = { status: 'error', message: userMessage(message.message), chains: CHAINS, steps, coordinates: [] };
        else if (message.type === 'done') this.result = { status: 'done', ...JSON.parse(message.result) };
        this.show();
      },
    });
    this.job = id;
  }

  /** A setting changed: a result of the earlier setting is cleared and said to be stale. */
  settingChanged() {
    if (!this.result || this.result.status === 'stale' || settingKey() === this.key) return;
    cancelGroup('multichain');
    this.job = 0;
    this.result = { status: 'stale', chains: CHAINS, steps: this.result.steps, coordinates: [] };
    this.show();
  }

  show() {
    const r = this.result;
    const status = $('multichain-status');
    status.textContent = {
      running: `Running ${r.chains} chains of ${r.steps.toLocaleString('en')} steps each in a background worker…`,
      done: `${r.chains} chains of ${r.steps.toLocaleString('en')} steps each (as long as the run on screen), from starts spread over the view.`,
      stale: 'The setting changed: run the chains again for it.',
      error: `The chains could not run: ${r.message}`,
    }[r.status];
    status.classList.toggle('error', r.status === 'error');
    $('multichain-table').hidden = r.status !== 'done';
    $('multichain-table').tBodies[0].replaceChildren(...r.coordinates.map((c) => {
      const row = document.createElement('tr');
      const name = document.createElement('th');
      name.scope = 'row';
      name.textContent = c.name;
      const disagree = c.rhat > RHAT_LIMIT;
      row.append(name, cell(c.rhat.toFixed(3), disagree ? 'disagree' : ''), cell(formatNumber(c.ess_bulk)), cell(formatNumber(c.ess_tail)),
        cell(`${formatNumber(c.mean)} ± ${formatNumber(c.mcse_mean)}`));
      if (disagree) row.cells[1].title = 'R̂ above 1.01: these chains disagree';
      return row;
    }));
  }

  /** The last result for the tests: { status, chains, steps, coordinates }, or null. */
  snapshot() {
    return this.result && { ...this.result, coordinates: this.result.coordinates.map((c) => ({ ...c })) };
  }
}
