// Error surfaces: the page banner, and the guard every call into wasm goes through (a panic kills
// the instance: the page shows the message and offers a reload instead of dying silently).

import { last_panic } from './pkg/sgviz.js';
import { $, app } from './app.js';
import { withLabels } from './format.js';
import { setPlaying } from './playback.js';

export function showBanner(message, kind = 'error') {
  const banner = $('banner');
  banner.textContent = message;
  banner.className = kind === 'error' ? 'banner' : 'banner notice';
  banner.hidden = false;
}

/** Library, parser or engine text that must never reach the screen (issue 26). */
const RAW_ERROR = /invalid type|line \d+ column|expected (f64|a |struct|value)|panicked|RuntimeError|TypeError|undefined|unreachable|JsError|serde/i;

/**
 * Rust Debug text (`BackendError(…)`, `DrawingAreaErrorKind`, `Some(…)`, `Foo { x: 1 }`, `a::b`)
 * and "drawing failed: …" wrappers: case-sensitive, as Rust spells its type names.
 */
const DEBUG_TEXT = /\b[A-Z][A-Za-z]*(Error|Kind)\b|\b(Some|None|Ok|Err)\(|\w::\w|\b[A-Z]\w* \{ ?\w+: |drawing failed/;

/** The name a control is shown under: its label's name span, its label, its aria-label, or its id. */
function controlName(element) {
  const label = element.labels?.[0];
  const text = label?.querySelector('.name')?.textContent || label?.textContent || element.getAttribute?.('aria-label') || element.id || '';
  return text.trim().replace(/\s+/g, ' ');
}

/** The control the user changed last ('' before any): the fallback message names it. */
let lastControl = '';

/** Remember the control behind a user's `input`/`change` event (the fallback names it). */
export function noteControl(element) {
  const name = element?.matches?.('input, select, textarea') ? controlName(element) : '';
  if (name) lastControl = name;
}

if (typeof document !== 'undefined') {
  // A failed call's message goes when a control changes: if its cause is still there, the next
  // failing call shows it again, naming that control.
  const changed = (event) => { noteControl(event.target); clearStatus('error'); };
  for (const kind of ['input', 'change']) document.addEventListener(kind, changed, true);
}

/**
 * What to say when a call's text is not written for the user (no raw library text on screen,
 * issue 26): name the control changed last, or Reset when none was.
 */
export function fallbackMessage() {
  return lastControl
    ? `Something could not be computed after you changed “${lastControl}”: move it back, or press Reset.`
    : 'Something could not be computed at these settings: press Reset.';
}

/** `message` if it is written for the user, else a plain sentence that names what to do. */
export function userMessage(message) {
  const text = withLabels(String(message ?? ''), app.registry);
  return RAW_ERROR.test(text) || DEBUG_TEXT.test(text) || !text ? fallbackMessage() : text;
}

/**
 * Show `message` under Play, remembering its `source` ('error', 'chart:<canvas id>', 'divergence', 'seed'), so that
 * the code that knows when the cause is gone can clear it (clearStatus).
 */
export function showStatus(message, source = 'error') {
  const status = $('status');
  status.textContent = userMessage(message);
  status.dataset.source = source;
}

/** Clear the status line if it shows a message from `source` (its cause is gone). */
export function clearStatus(source) {
  const status = $('status');
  if (status.dataset.source === source) {
    status.textContent = '';
    delete status.dataset.source;
  }
}

/** Run a call into wasm; a panic kills the instance and shows a banner instead of a dead page. */
export function guarded(action, source = 'error') {
  if (app.dead) return undefined;
  try {
    return action();
  } catch (error) {
    const panic = last_panic();
    if (panic) {
      app.dead = true;
      setPlaying(false);
      showBanner(`Internal error: ${panic}. Reload the page to start again.`);
    } else {
      showStatus(error.message || error, source);
    }
    return undefined;
  }
}
