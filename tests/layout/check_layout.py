#!/usr/bin/python3
"""check_layout.py -- the code keeps the shape doc/design.md draws.

- Calls go one way: among the files of src/, no circle of files calls back into one another.
  The call graph comes from the built objects (nm): an edge A -> B when A uses a symbol B
  defines. grammar/ is left out of the circles: the parser calls the actions of the file that
  drives it, and reading an $INCLUDE file from an action is the one circle, through bison.
- Folders are layers: a file calls only into its own folder and the folders below it (LAYERS),
  and includes only their headers (a struct is a dependency as much as a call is);
  check/registry.c, the table of -W names, may be named from anywhere.
- No hand-written C file (src/, grammar/) over 600 lines; generated tables say "do not edit".
- Types and classes go by the names of the one table (record/rrtype.h's ZP_TYPE_* and
  ZP_CLASS_*): no type or class compared with a bare number, no enum of type numbers of its own.
- Object names are unique across src/ (ar keeps one member per name).
- The code map (doc/design.md) names every file of src/ (a header with its .c), and every src/
  path it names exists.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

MAX_LINES = 600
# folder -> the folders its files may call ("" is src/ itself: pipeline.c)
LAYERS = {
    "idna": set(),
    "core": {"idna"},
    "record": {"core", "idna"},
    "read": {"record", "core", "idna"},
    "label": {"record", "core", "idna"},
    "check": {"record", "core", "idna"},
    "write": {"record", "core", "idna"},
    "diff": {"write", "record", "core", "idna"},
    "": {"read", "label", "check", "write", "record", "core", "idna"},
    "cli": {"", "read", "label", "check", "write", "diff", "record", "core", "idna"},
}
ANYONE = {"check/registry"}

t = Tally()
os.chdir(REPO_DIR)
build = os.environ.get("BUILD", "build")
sources = sorted(glob.glob("src/**/*.c", recursive=True))
headers = sorted(glob.glob("src/**/*.h", recursive=True))
units = [s[len("src/"):-len(".c")] for s in sources]   # e.g. "read/zone"


def folder(unit):
    return os.path.dirname(unit)


# ---- the call graph of the objects ----
defs, uses = {}, {}
for u in units:
    obj = os.path.join(build, "obj", u + ".o")
    if not os.path.exists(obj):
        t.bad("no object %s: build first (make)" % obj)
        continue
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    uses[u] = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == "U":
            uses[u].add(f[0])
        elif f[1].isupper():   # a global definition
            defs.setdefault(f[0], set()).add(u)
edges = {u: set() for u in uses}
for u, syms in uses.items():
    for s in syms:
        for v in defs.get(s, ()):
            if v != u:
                edges[u].add(v)
if sum(len(v) for v in edges.values()) > 50:
    t.ok()
else:
    t.bad("the call graph has %d edges: nm read nothing?" % sum(len(v) for v in edges.values()))

# circles: strongly connected components of more than one file (Tarjan's algorithm)
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]


def strong(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(comp)


sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        strong(v)
for comp in sccs:
    if len(comp) > 1:
        t.bad("files that call back into one another: " + ", ".join(sorted(comp)), show=True)
    else:
        t.ok()

# layers
for u in sorted(edges):
    f = folder(u)
    if f not in LAYERS:
        t.bad("src/%s is in no layer: add its folder to LAYERS and doc/design.md" % u, show=True)
        continue
    for v in sorted(edges[u]):
        if folder(v) == f or folder(v) in LAYERS[f] or v in ANYONE:
            t.ok()
        else:
            called = sorted(s for s in uses[u] if v in defs.get(s, ()))
            t.bad("src/%s.c calls up into src/%s.c (%s): %s/ may call only %s" %
                  (u, v, ", ".join(called[:3]), f or "src", sorted(LAYERS[f]) or "nothing"),
                  show=True)

# layers, by what a file includes
for p in sources + headers:
    f = folder(p[len("src/"):])
    with open(p, encoding="utf-8") as fh:
        for n, ln in enumerate(fh, 1):
            m = re.match(r'#include "([a-z0-9_]+)/([a-z0-9_]+)\.h"', ln)
            if not m or f not in LAYERS:
                continue
            g, unit = m.group(1), m.group(1) + "/" + m.group(2)
            if g == f or g in LAYERS[f] or unit in ANYONE:
                t.ok()
            else:
                t.bad("%s:%d includes %s/%s.h: %s/ may use only %s" %
                      (p, n, g, m.group(2), f or "src", sorted(LAYERS[f]) or "nothing"), show=True)

# ---- types by name ----
BARE = re.compile(r"\b(rtype|rclass|covered|in->type)\s*[!=]=\s*[1-9]|\bT_[A-Z0-9]+\s*=\s*[0-9]")
for p in sources + headers:
    if p == "src/record/rrtype.c" or p.startswith("src/idna/"):
        continue
    with open(p, encoding="utf-8") as fh:
        for n, ln in enumerate(fh, 1):
            if BARE.search(ln):
                t.bad("%s:%d: a type or class by its number: %s (record/rrtype.h names them)" %
                      (p, n, ln.strip()), show=True)
t.ok()

# ---- sizes and names ----
for p in sources + headers + sorted(glob.glob("grammar/*")):
    with open(p, encoding="utf-8") as fh:
        first = fh.readline()
        n = 1 + sum(1 for _ in fh)
    if "do not edit" in first:
        continue
    if n <= MAX_LINES:
        t.ok()
    else:
        t.bad("%s has %d lines, over %d: split it by subject" % (p, n, MAX_LINES), show=True)
seen = {}
for u in units:
    b = os.path.basename(u)
    if b in seen:
        t.bad("src/%s.c and src/%s.c share an object name" % (seen[b], u), show=True)
    else:
        seen[b] = u
        t.ok()

# ---- the code map ----
CODE_MAP = "doc/design.md"
with open(CODE_MAP, encoding="utf-8") as fh:
    codemap = fh.read()
# (a header beside its .c is named with it; a row may name its folder once: `read/a.c`, `b.c`)
lines = codemap.splitlines()
for p in sources + [h for h in headers if h[:-2] + ".c" not in sources]:
    rel = p[len("src/"):]
    d, base = os.path.dirname(rel), os.path.basename(rel)
    if rel in codemap or any("`%s/" % d in ln and "`%s`" % base in ln for ln in lines):
        t.ok()
    else:
        t.bad("%s's code map does not name %s" % (CODE_MAP, p), show=True)
named = set(re.findall(r"\bsrc/[a-z0-9_/]+\.[ch]\b", codemap))
folders = "|".join(f for f in LAYERS if f)
named |= {"src/" + m for m in re.findall(r"`((?:%s)/[a-z0-9_]+\.[ch])`" % folders, codemap)}
for p in sorted(named):
    if os.path.exists(p):
        t.ok()
    else:
        t.bad("%s names %s, which does not exist" % (CODE_MAP, p), show=True)
t.need_pass("layout")
t.finish()
