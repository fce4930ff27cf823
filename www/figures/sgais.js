// The figures gallery's SGAIS entries (Cameron, Eggers & Kroon 2019).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SGAIS Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).

export const SGAIS_FIGURES = [
  {
    id: 'sgais-linreg',
    figure: 'SGAIS Fig. 2',
    title: 'SGAIS: online evidence for linear regression (Fig. 2)',
    source: 'Cameron, Eggers & Kroon 2019, Fig. 2',
    text: 'Bayesian linear regression with 5 features; the data arrive in chunks of 1,000 and SGAIS updates log Ẑ after each (at the accurate defaults; the paper\'s own settings are the "paper" preset of the CLI). The dashed curve is the exact sequential evidence; the points are full-data AIS at N/4, N/2 and N with the same settings and its own seed, whose run time the table compares.',
    sgais: 'linreg',
  },
  {
    id: 'sgais-shift',
    figure: 'SGAIS Fig. 5',
    title: 'SGAIS under distribution shift (Fig. 5)',
    source: 'Cameron, Eggers & Kroon 2019, §6.2 and Fig. 5',
    text: 'Data from 3, then 5, then 7 Gaussian clusters (changes at n = 1,000 and 10,000), fitted by 3-, 5- and 7-component mixtures in order, and the 7-component model on shuffled data. The change points show as jumps in log Ẑ/n and spikes in annealing steps.',
    sgais: 'shift',
  },
];
