#!/usr/bin/env python3
"""Draw docs/architecture.svg: sgviz's layers, and how one animation frame and one background job
flow through them. Python 3 standard library only; run from anywhere:

    python3 scripts/draw-architecture.py            # writes docs/architecture.svg

Every box names the file and the function it stands for, so the picture can be checked against the
code (and redrawn when the code moves). Text is at least 13 px at the SVG's natural size.
"""

from pathlib import Path
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 1560, 1220
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
BODY, SMALL, TITLE, HEADING = 15, 13, 18, 22
CHAR_WIDTH = 0.56  # average glyph width per px of font size, for wrapping
MONO_WIDTH = 0.62  # the same for the monospace lines

# One colour per layer (fill, stroke); the flow boxes reuse them, so a step shows its layer.
LAYERS = {
    "model": ("#dbeafe", "#1d4ed8"),
    "sampler": ("#dcfce7", "#15803d"),
    "chain": ("#fef9c3", "#a16207"),
    "lab": ("#fee2e2", "#b91c1c"),
    "web": ("#ede9fe", "#6d28d9"),
    "www": ("#f1f5f9", "#334155"),
    "worker": ("#ffedd5", "#c2410c"),
}

out = []


def wrap(text, width_px, size, glyph=CHAR_WIDTH):
    """Greedy word wrap for an approximate glyph width."""
    limit = max(8, int(width_px / (size * glyph)))
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if len(candidate) > limit and line:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def text(x, y, s, size=BODY, weight="normal", anchor="start", family=FONT, fill="#0f172a"):
    out.append(
        f'<text x="{x:.0f}" y="{y:.0f}" font-family="{family}" font-size="{size}" '
        f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}">{escape(s)}</text>'
    )


def box(x, y, w, layer, title, body, code=None):
    """A rounded box with a bold title, wrapped body text and an optional monospace line.
    Returns its height."""
    fill, stroke = LAYERS[layer]
    lines = wrap(body, w - 20, BODY) if body else []
    code_lines = wrap(code, w - 20, SMALL, MONO_WIDTH) if code else []
    h = 12 + TITLE + 6 + len(lines) * (BODY + 4) + len(code_lines) * (SMALL + 4) + 10
    out.append(
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2"/>'
    )
    cy = y + 12 + TITLE - 3
    text(x + 10, cy, title, TITLE, "bold", fill=stroke)
    cy += 6
    for line in lines:
        cy += BODY + 4
        text(x + 10, cy - 4, line, BODY)
    for line in code_lines:
        cy += SMALL + 4
        text(x + 10, cy - 4, line, SMALL, family=MONO, fill="#334155")
    return h


def arrow(x1, y1, x2, y2, label=None, colour="#334155", dashed=False):
    dash = ' stroke-dasharray="7 5"' if dashed else ""
    out.append(
        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="2.2"'
        f'{dash} marker-end="url(#head)"/>'
    )
    if label:
        text((x1 + x2) / 2 + 8, (y1 + y2) / 2 + 5, label, SMALL, fill=colour)


def column(x, y, w, steps, gap=26):
    """Boxes one under another joined by arrows; returns the (top, bottom) of every box."""
    spans = []
    for i, (layer, title, body, code) in enumerate(steps):
        h = box(x, y, w, layer, title, body, code)
        spans.append((y, y + h))
        if i + 1 < len(steps):
            arrow(x + w / 2, y + h, x + w / 2, y + h + gap - 2)
        y += h + gap
    return spans


def main():
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">'
    )
    out.append(
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#334155"/></marker></defs>'
    )
    out.append(f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>')
    text(20, 36, "sgviz — layers, one frame, one background job", HEADING, "bold")

    # Column 1: the layers, each used by the one below it.
    text(20, 72, "Layers (each is used by the one below)", TITLE, "bold")
    layers = [
        ("model", "Models — src/model/",
         "One file per target: log π, per-datum scores ∇ℓ_i, truth hooks (closed form, "
         "Gaussian precision, bounds).", "trait Model"),
        ("sampler", "Samplers — src/sampler/",
         "One file per sampler; the minibatch gradient oracle; one step returns a sample, or a "
         "trajectory segment for the bouncy family.", "trait Sampler · gradient.rs · Emitted"),
        ("chain", "Chain — src/chain/",
         "One seeded chain: records moments (Welford, segment integrals) and a fixed-size ring "
         "of samples; divergence guard; runaway watch.", "rng.rs · diagnostics.rs · ring.rs · runaway.rs"),
        ("lab", "Lab / analysis / SGAIS",
         "lab/: everything behind one 2-D panel, in plain Rust. Truth, predicted law, derived "
         "defaults; the bias–mixing sweep and noise picture; SGAIS runs; charts as ChartSpec.",
         "lab/ truth.rs law.rs defaults.rs analysis.rs sweep.rs phase.rs sgais/ plot/"),
        ("web", "web.rs — the wasm surface",
         "#[wasm_bindgen] marshalling only: JSON and typed arrays in, JSON and pixels out.",
         "Lab · SgaisRunner · draw_chart_json · adopt_prepared · adopt_model"),
        ("www", "Browser — www/ (main thread) and workers",
         "ES modules, one per concern: frame loop, controls, URL state, lessons, panels. "
         "Background work in module Web Workers, each with its own wasm instance.",
         "main.js playback.js stepper.js view.js panel2d.js charts.js jobs.js worker.js"),
    ]
    spans = column(20, 90, 470, layers, gap=30)
    for (top, bottom), label in zip(spans[:-1], ["used by"] * 5):
        text(255 + 10, bottom + 20, label, SMALL, fill="#334155")
    y = spans[-1][1] + 30
    h = box(20, y, 470, "www", "One registry — src/registry.rs",
            "Targets, samplers and their parameters: the single source the CLI "
            "(src/bin/sgviz.rs, layers 1–4 natively), the UI controls and the URL state read.")

    # Column 2: one frame on the main thread.
    x2, w2 = 530, 480
    text(x2, 72, "One frame (main thread, every animation frame)", TITLE, "bold")
    frame = [
        ("www", "1  main.js frame()",
         "requestAnimationFrame; ticks the truth, analysis and SGAIS panels; if playing:", None),
        ("www", "2  playback.js advanceFrame",
         "at most `speed` steps, within the frame's work budget (frame-budget.js).", None),
        ("www", "3  stepper.js runWithin",
         "chunks sized from the measured cost per step: 1 step, then ≤ 4× the last chunk, "
         "within an 8 ms slice.", "lab.run(chunk)"),
        ("web", "4  web.rs Lab::run", "crosses into wasm; marshals nothing but a count.", None),
        ("lab", "5  lab/ Lab::run", "runs the chain, then bins the new samples into the "
         "density image.", "Chain::run · bin_new_samples"),
        ("sampler", "6  Sampler::step",
         "one update of the chosen sampler on the model (minibatch gradient, noise, bounce …).",
         "→ Emitted::Sample | Segment"),
        ("chain", "7  Chain::record",
         "moments += sample (or the segment's exact integrals); ring buffer += sample.",
         "RunningMoments · RingBuffer"),
        ("www", "8  view.js draw()",
         "panel2d blits the RGBA density image straight from wasm memory; overlay: ellipses "
         "(truth, sampler, predicted law), trail or path; state_json → numbers and warnings.",
         "render_density · state_json"),
        ("web", "9  charts.js drawPendingCharts",
         "at most one heavy chart per frame, drawn by plotters on the main thread.",
         "draw_chart_json(spec, canvas)"),
    ]
    fspans = column(x2, 90, w2, frame, gap=22)

    # Column 3: one background job.
    x3, w3 = 1050, 490
    text(x3, 72, "One background job (Web Worker)", TITLE, "bold")
    job = [
        ("www", "A  truth.js · analysis.js · sgais.js",
         "settings changed: start a job.", "startJob({kind: 'prepare' | 'sweep' | 'sgais'})"),
        ("www", "B  jobs.js",
         "pool of cores − 1 workers (1 to 8, the main thread keeps a core); every job has an id and a group; a newer job "
         "cancels stale ones; Stop terminates the worker at once.", "worker.postMessage(payload)"),
        ("worker", "C  worker.js — its own wasm instance",
         "no SharedArrayBuffer, so no COOP/COEP headers: works from any static host.",
         "await init(); JOBS[kind](data)"),
        ("worker", "D  the job runs layers 1–4 in the worker",
         "prepare: truth (grid, Laplace or MALA reference run), contours, large data; "
         "sweep: chains at several ε / α; sgais: one replica or the AIS baseline.",
         "Lab.advance_truth · advance_analysis · SgaisRunner.advance"),
        ("worker", "E  post results as JSON, never draw",
         "plotters' text measurement panics in workers, so charts travel as ChartSpec JSON; "
         "large data as transferable buffers.",
         "analysis_charts_json · result_json · export_prepared_json"),
        ("www", "F  main thread onmessage",
         "queue the chart for the next frame; adopt a prepared truth or model.",
         "queueChart(id, spec) · adopt_prepared · adopt_model"),
        ("web", "G  next frame, step 9",
         "the main thread draws the worker's chart.", "draw_chart_json(spec, canvas)"),
    ]
    jspans = column(x3, 90, w3, job, gap=22)

    # The job's charts come back to the frame's step 9.
    gy = (jspans[-1][0] + jspans[-1][1]) / 2
    fy = (fspans[-1][0] + fspans[-1][1]) / 2
    arrow(x3, gy, x2 + w2 + 4, fy, None, colour="#6d28d9", dashed=True)
    text((x3 + x2 + w2) / 2 + 6, (gy + fy) / 2 + 34, "same", SMALL, fill="#6d28d9")
    text((x3 + x2 + w2) / 2 + 6, (gy + fy) / 2 + 50, "call", SMALL, fill="#6d28d9")

    # Legend.
    ly = HEIGHT - 34
    text(530, ly, "Colour = layer:", SMALL, "bold")
    lx = 650
    for layer, name in [("model", "models"), ("sampler", "samplers"), ("chain", "chain"),
                        ("lab", "lab / analysis / sgais"), ("web", "web.rs"),
                        ("www", "www (main thread)"), ("worker", "worker")]:
        fill, stroke = LAYERS[layer]
        out.append(f'<rect x="{lx}" y="{ly - 13}" width="18" height="16" rx="3" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="2"/>')
        text(lx + 24, ly, name, SMALL)
        lx += 24 + len(name) * SMALL * 0.6 + 18

    bottom = max(fspans[-1][1], jspans[-1][1], y + h)
    assert bottom < HEIGHT - 50, f"content reaches {bottom}: enlarge HEIGHT"
    out.append("</svg>")
    target = Path(__file__).resolve().parent.parent / "docs" / "architecture.svg"
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"wrote {target} ({WIDTH}×{HEIGHT}, content to y = {bottom:.0f})")


if __name__ == "__main__":
    main()
