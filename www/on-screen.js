// Which of the page's charts are on screen (an IntersectionObserver over the viewport), so that
// while playing the frame loop redraws only the charts a student can see: at 1920×1080 the trace
// and autocorrelation charts sit below the 2-D plot in compare mode (then 1,878×1,409 pixels each, now 928×696), and redrawing
// them there cost the main thread about 4 ms a frame in compare mode (issue 26). A chart that
// comes into view gets its turn back at once (`whenShown`). Decides nothing else.

/** element → whether any part of it intersects the viewport (absent: not known yet). */
const visible = new WeakMap();
/** element → what to do when it comes into view. */
const shownCallbacks = new WeakMap();
let observer = null;

function observe(entries) {
  for (const entry of entries) {
    const was = visible.get(entry.target);
    visible.set(entry.target, entry.isIntersecting);
    if (entry.isIntersecting && was === false) shownCallbacks.get(entry.target)?.();
  }
}

/** Follow `element`'s visibility; `whenShown()` runs each time it comes back into view. */
export function watchOnScreen(element, whenShown) {
  if (!element || typeof IntersectionObserver === 'undefined') return;
  observer ??= new IntersectionObserver(observe, { threshold: 0 });
  shownCallbacks.set(element, whenShown);
  observer.observe(element);
}

/** Whether `element` is (or may be) on screen: true until the observer has said otherwise. */
export function onScreen(element) {
  return visible.get(element) !== false;
}
