// Which of the page's charts are on screen (an IntersectionObserver over the viewport), so that
// while playing the frame loop redraws only the charts a student can see: at 1920×1080 the trace
// and autocorrelation charts sit below the 2-D plot in compare mode (then 1,878×1,409 pixels each, now 928×696), and redrawing
// them there cost the main thread about 4 ms a frame in compare mode (issue 26). A chart that
// comes into view gets its turn back at once (`whenShown`): a scroll is seen in the scroll event,
// which the browser dispatches in the frame that shows the new position before that frame's
// animation callbacks, so the frame loop draws the chart in the first frame it is seen (issue 26,
// stop 41: the observer's own report comes a frame after the paint, and the chart kept its first,
// empty drawing for up to 300 ms). Decides nothing else.

/** element → whether any part of it intersects the viewport (absent: not known yet). */
const visible = new WeakMap();
/** element → what to do when it comes into view. */
const shownCallbacks = new WeakMap();
/** The elements followed (the charts' canvases, which stay for the page's life). */
const watched = new Set();
let observer = null;

/** Record whether `element` intersects the viewport now; call its `whenShown` when it just came in. */
function seen(element, now) {
  const was = visible.get(element);
  visible.set(element, now);
  if (now && was === false) shownCallbacks.get(element)?.();
}

function observe(entries) {
  for (const entry of entries) seen(entry.target, entry.isIntersecting);
}

/** Whether `element`'s box meets the viewport (a hidden element's box is empty: not on screen). */
function inViewport(element) {
  const r = element.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
}

/** On scroll or resize: the followed elements' visibility at the new position, before this frame's drawing. */
function recheck() {
  for (const element of watched) seen(element, inViewport(element));
}

/** Follow `element`'s visibility; `whenShown()` runs each time it comes back into view. */
export function watchOnScreen(element, whenShown) {
  if (!element || typeof IntersectionObserver === 'undefined') return;
  if (!observer) {
    observer = new IntersectionObserver(observe, { threshold: 0 });
    // Capture: a scroll of any scrolling box (the page or an inner one) moves the charts.
    addEventListener('scroll', recheck, { capture: true, passive: true });
    addEventListener('resize', recheck, { passive: true });
  }
  shownCallbacks.set(element, whenShown);
  watched.add(element);
  observer.observe(element);
}

/** Whether `element` is (or may be) on screen: true until the observer has said otherwise. */
export function onScreen(element) {
  return visible.get(element) !== false;
}
