// A preset's note as a slide: its first two sentences (what to look at, what it shows) in view and
// the rest behind "more" (issue 26, stop 49: sgfs-bias-mixing's 1,300 characters scrolled inside a
// 320 px column at 1920×1080; on a phone a long note pushed its figure a screen down).

/** Abbreviations whose full stop does not end a sentence ("Fig. 5", "App. D", "e.g. the"). */
const ABBREVIATIONS = /(?:\b(?:Fig|Figs|App|Eq|Eqs|eq|eqs|Sec|al|vs|cf|approx|resp|i\.e|e\.g)|§\s?\d+)\.$/;

/**
 * The first `count` sentences of `text` and the rest (either may be empty). A sentence ends at
 * ".", "!" or "?" (with a closing quote or bracket after it) before a space and a capital letter,
 * a digit or an opening quote, unless the word before the stop is an abbreviation.
 */
export function splitLead(text, count = 2) {
  const end = /[.!?]["”’)]?(?=\s+["“‘(]?[\p{Lu}\d])/gu;
  let found = 0;
  for (let m = end.exec(text); m; m = end.exec(text)) {
    if (ABBREVIATIONS.test(text.slice(Math.max(0, m.index - 12), m.index + 1))) continue;
    found += 1;
    if (found === count) return { lead: text.slice(0, m.index + m[0].length), rest: text.slice(m.index + m[0].length).trim() };
  }
  return { lead: text, rest: '' };
}

/**
 * Write `text` into the note `element`: its lead (`heading` and the first two sentences) shown, the
 * rest hidden behind a "more" button that shows it ("less" hides it again). The whole text stays in
 * the element's textContent (tests and screen readers read it).
 */
export function showNoteLead(element, heading, text) {
  const { lead, rest } = splitLead(text);
  const restSpan = Object.assign(document.createElement('span'), { className: 'note-rest', hidden: true, textContent: ` ${rest}` });
  const toggle = Object.assign(document.createElement('button'), { type: 'button', className: 'note-more', textContent: 'more' });
  toggle.setAttribute('aria-expanded', 'false');
  toggle.addEventListener('click', () => {
    restSpan.hidden = !restSpan.hidden;
    toggle.textContent = restSpan.hidden ? 'more' : 'less';
    toggle.setAttribute('aria-expanded', String(!restSpan.hidden));
  });
  element.replaceChildren(`${heading}${lead}`, ...(rest ? [restSpan, ' ', toggle] : []));
}
