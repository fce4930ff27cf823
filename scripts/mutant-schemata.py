#!/usr/bin/env python3
# Issue 23, fifteenth pass (MUTANTS.md): the mutant-schemata generator. In a scratch copy of the
# tree (`git archive HEAD | tar -x -C COPY`), after `cargo mutants --no-config --list --json -f …
# > LIST.json`: `scripts/mutant-schemata.py COPY LIST.json` rewrites the listed files, then add
# to COPY/src/lib.rs:
#   pub fn mutant_on(k: usize) -> bool { static M: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
#       *M.get_or_init(|| std::env::var("MUTANT").ok().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX)) == k }
# `cargo check --lib --message-format short` names the unviable branches (map the error lines to
# ids with COPY/mutants-map.json's line ranges) and a re-run with `--skip id,id,…` drops them;
# build once, then `MUTANT=k cargo nextest run …` runs mutant k.
"""Mutant schemata (MUTANTS.md, fourteenth pass): compile every listed cargo-mutants mutant into one
library. Each function with mutants becomes { if crate::mutant_on(k1) BODY1 else if ... else ORIGINAL }.

usage: schemata.py TREE MUTANTS.json [--skip ids] [--start N]
Writes TREE/mutants-map.json: [{id, name, file, fn, line_lo, line_hi}] (lines of the branch in the
mutated file) and rewrites the files in TREE in place (from their pristine copies *.orig).
"""
import json, sys, os, re

tree, listing = sys.argv[1], sys.argv[2]
skip = set()
start = 0
args = sys.argv[3:]
while args:
    a = args.pop(0)
    if a == '--skip':
        skip = set(int(x) for x in args.pop(0).split(',') if x)
    elif a == '--start':
        start = int(args.pop(0))

muts = json.load(open(listing))
for i, m in enumerate(muts):
    m['id'] = start + i


def offsets(text):
    """line (1-based) -> offset of its first char"""
    offs = [0, 0]
    for i, ch in enumerate(text):
        if ch == '\n':
            offs.append(i + 1)
    return offs


def pos(offs, p):
    return offs[p['line']] + p['column'] - 1


def body_start(ftext):
    """offset of the body's opening brace in a function's text (which may begin with docs/attrs)."""
    i = 0
    lines = ftext.split('\n')
    # skip doc comments and attributes
    off = 0
    for ln in lines:
        s = ln.strip()
        if s.startswith('//') or s.startswith('#[') or s == '':
            off += len(ln) + 1
            continue
        break
    m = re.compile(r'\bfn\b').search(ftext, off)
    j = ftext.index('(', m.end())
    depth = 0
    while True:
        c = ftext[j]
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                break
        j += 1
    j += 1
    while ftext[j] != '{':
        j += 1
    return j


byfile = {}
for m in muts:
    if m['id'] in skip:
        continue
    if 'function' not in m or m['function'] is None:
        print('no function:', m['name'], file=sys.stderr)
        continue
    byfile.setdefault(m['file'], []).append(m)

mapping = []
for f, ms in byfile.items():
    path = os.path.join(tree, f)
    if not os.path.exists(path + '.orig'):
        os.rename(path, path + '.orig')
    text = open(path + '.orig').read()
    offs = offsets(text)
    fns = {}
    for m in ms:
        s = m['function']['span']
        key = (pos(offs, s['start']), pos(offs, s['end']))
        fns.setdefault(key, []).append(m)
    keys = sorted(fns)
    # drop nested functions (overlapping spans): keep the outer ones only
    kept = []
    for k in keys:
        if kept and k[0] < kept[-1][1]:
            for m in fns[k]:
                print('nested, not run:', m['id'], m['name'], file=sys.stderr)
            continue
        kept.append(k)
    out = []
    last = 0
    for (a, b) in kept:
        out.append(text[last:a])
        ftext = text[a:b]
        bs = body_start(ftext)
        sig = ftext[:bs]
        orig_body = ftext[bs:]
        parts = []
        for m in fns[(a, b)]:
            ma, mb = pos(offs, m['span']['start']) - a, pos(offs, m['span']['end']) - a
            assert bs <= ma <= mb <= len(ftext), m['name']
            mt = ftext[:ma] + m['replacement'] + ftext[mb:]
            parts.append((m, mt[bs:]))
        pieces = [sig, '{ ']
        for m, body in parts:
            pieces.append('if crate::mutant_on(%d) ' % m['id'])
            lo = ''.join(out).count('\n') + ''.join(pieces).count('\n') + 1
            pieces.append(body)
            hi = ''.join(out).count('\n') + ''.join(pieces).count('\n') + 1
            pieces.append(' else ')
            mapping.append(dict(id=m['id'], name=m['name'], file=f, fn=m['function']['function_name'], line_lo=lo, line_hi=hi))
        pieces.append(orig_body)
        pieces.append(' }')
        out.append(''.join(pieces))
        last = b
    out.append(text[last:])
    open(path, 'w').write(''.join(out))

old = []
mp = os.path.join(tree, 'mutants-map.json')
json.dump(mapping, open(mp, 'w'), indent=0)
print(len(mapping), 'mutants in', len(byfile), 'files')
