// The figures gallery: every in-scope figure of the five seed papers as a preset, grouped by paper
// (one file per paper). A figure's `figure` field is '<PAPER> Fig. <n>'; the preset menu lists
// them under one group per paper, and README.md's table sets the paper's number beside ours.

import { SGLD_FIGURES } from './sgld.js';
import { SGFS_FIGURES } from './sgfs.js';
import { SBPS_FIGURES } from './sbps.js';
import { OSGFS_FIGURES } from './osgfs.js';
import { SGAIS_FIGURES } from './sgais.js';

/** The papers in the order of the menu, each with its figures. */
export const PAPERS = [
  { key: 'SGLD', cite: 'Welling & Teh 2011', figures: SGLD_FIGURES },
  { key: 'SGFS', cite: 'Ahn, Korattikara & Welling 2012', figures: SGFS_FIGURES },
  { key: 'SBPS', cite: 'Pakman et al. 2017', figures: SBPS_FIGURES },
  { key: 'OSGFS', cite: 'El hanchi 2018', figures: OSGFS_FIGURES },
  { key: 'SGAIS', cite: 'Cameron, Eggers & Kroon 2019', figures: SGAIS_FIGURES },
];

export const FIGURES = PAPERS.flatMap((paper) => paper.figures);
