// The figures gallery's SBPS entries (Pakman, Gilboa, Carlson & Paninski 2017).
// Each entry is a preset (see www/presets.js for its fields) whose `figure` names the paper's figure
// exactly as 'SBPS Fig. <n>', with `paper` quoting the paper's headline number(s) beside the
// live ones that its `claims` pin (checked at class time by tests/e2e/class-time.test.mjs).

export const SBPS_FIGURES = [

];
