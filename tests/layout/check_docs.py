#!/usr/bin/python3
"""check_docs.py -- the README stays a two-minute read, and the README and doc/ point at what is.

- README.md is under 15,000 bytes; its parts come in order: what zonepuny is, Install, Quick
  start, the three uses (convert, pre-commit, before rndc reload), In the editor, In CI (GitHub
  Actions, GitLab CI), Reference, Deliberate differences from BIND.
- The quick start is under 200 words, and it works: its zone saved as the file it names, each
  console block's commands run in a shell (./build/zonepuny the built binary) print exactly what
  the block shows. The ACE form the README promises for münchen is Python's encodings.idna's.
- Install holds the two set-up commands, and the test command is the one .ci/run runs.
- Every link of README.md and doc/*.md leads to a file that exists, and an anchor to a heading
  of it; every doc/*.md is in the README's Reference table.
- Every repository path the README and doc/ name in backquotes exists (placeholders such as
  tests/GROUP/check_NAME.sh and globs are left out); none of them names a file the repository
  does not ship, nor refers to issue numbers.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally()
os.chdir(REPO_DIR)
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
MAX_BYTES = 15000
MAX_QUICK_WORDS = 200


def check(cond, *what):
    if cond:
        t.ok()
    else:
        t.bad(*what, show=True)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def headings(text):
    """(level, title, line index) of the Markdown headings outside fenced code."""
    out, fenced = [], False
    for i, line in enumerate(text.splitlines()):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            m = re.match(r"(#{1,6}) (.*)", line)
            if m:
                out.append((len(m.group(1)), m.group(2).strip(), i))
    return out


def slug(title):
    """A heading's anchor as GitHub makes it: lowercase, punctuation but - and _ dropped."""
    s = title.lower().replace("`", "")
    s = "".join(c for c in s if c.isalnum() or c in " -_")
    return s.replace(" ", "-")


def anchors(text):
    seen, out = {}, set()
    for _, title, _ in headings(text):
        s = slug(title)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def section(text, title, level=2):
    """The lines of the part under the heading TITLE, up to the next heading of its level."""
    lines = text.splitlines()
    hs = headings(text)
    for k, (lv, ti, i) in enumerate(hs):
        if lv == level and ti == title:
            end = next((j for lv2, _, j in hs[k + 1:] if lv2 <= level), len(lines))
            return lines[i + 1:end]
    return None


def fences(lines):
    """(info string, body lines, the text before the block) of each fenced block in LINES."""
    out, i, prose = [], 0, []
    while i < len(lines):
        if lines[i].startswith("```"):
            info, body = lines[i][3:].strip(), []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((info, body, "\n".join(prose)))
            prose = []
        else:
            prose.append(lines[i])
        i += 1
    return out


readme = read("README.md")
docs = sorted(glob.glob("doc/*.md"))

# ---- size and order ----
size = len(readme.encode("utf-8"))
check(size < MAX_BYTES, "README.md is %d bytes, not under %d" % (size, MAX_BYTES))
want = [(1, "zonepuny"), (2, "Install"), (2, "Quick start"), (2, "Three uses"), (3, "Convert"),
        (3, "Before a commit: pre-commit"), (3, "Before `rndc reload`: zonepuny-reload"),
        (2, "In the editor"), (2, "In CI"), (3, "GitHub Actions"), (3, "GitLab CI"), (2, "Reference"),
        (2, "Deliberate differences from BIND")]
got = [(lv, ti) for lv, ti, _ in headings(readme)]
check(got == want, "README's parts are not in order:\n  got  %s\n  want %s" % (got, want))
intro = readme.split("\n## ", 1)[0]
check("münchen" in intro and "xn--mnchen-3ya" in intro,
      "README's opening does not show münchen and xn--mnchen-3ya")
check("münchen".encode("idna") == b"xn--mnchen-3ya", "encodings.idna: münchen is not xn--mnchen-3ya")

# ---- Install, and .ci/run ----
install = section(readme, "Install") or []
blocks = fences(install)
cmds = [b[1] for b in blocks]
check(cmds[:2] == [["make deps && make && ./build/zonepuny zones/sample.zone"],
                   ["make deps-test && make check"]],
      "Install: the set-up commands are not the two of doc/building.md", cmds)
ci_run = [ln for ln in read(".ci/run").splitlines() if ln and not ln.startswith("#")
          and not ln.startswith(("set ", "cd "))]
check(len(cmds) >= 2 and ci_run == cmds[1],
      ".ci/run does not run the README's test command", ci_run, cmds[1:2])
building = read("doc/building.md")
for c in cmds[:2]:
    check(c and ("    " + c[0]) in building.splitlines(), "doc/building.md lacks", c)

# ---- the quick start: short, and it works ----
quick = section(readme, "Quick start")
if quick is None:
    t.bad("README has no Quick start", show=True)
else:
    words = len("\n".join(quick).split())
    check(words < MAX_QUICK_WORDS, "the quick start has %d words, not under %d" %
          (words, MAX_QUICK_WORDS))
    print("quick start: %d words; README: %d bytes" % (words, size))
    if not os.access(ZP, os.X_OK):
        t.skip("no zonepuny at %s (make): the quick start is not run" % ZP)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "build"))
            with open(os.path.join(tmp, "build", "zonepuny"), "w") as f:
                f.write('#!/bin/sh\nexec "$ZONEPUNY" "$@"\n')
            os.chmod(os.path.join(tmp, "build", "zonepuny"), 0o755)
            env = dict(os.environ, ZONEPUNY=ZP, LC_ALL="C.UTF-8")
            env.pop("NO_COLOR", None)
            ran = 0
            for info, body, before in fences(quick):
                if info == "":
                    m = re.search(r"save this as `([^`/]+)`", before)
                    check(m, "quick start: a zone block without 'save this as `FILE`'")
                    if m:
                        with open(os.path.join(tmp, m.group(1)), "w", encoding="utf-8") as f:
                            f.write("\n".join(body) + "\n")
                elif info == "console":
                    script = "\n".join(ln[2:] for ln in body if ln.startswith("$ "))
                    shown = "".join(ln + "\n" for ln in body if not ln.startswith("$ "))
                    p = subprocess.run(["bash", "-c", script], cwd=tmp, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                    out = p.stdout.decode("utf-8", "replace")
                    check(out == shown, "quick start: `%s` prints\n%s\nnot what the README "
                          "shows:\n%s" % (script, out, shown))
                    ran += 1
            check(ran >= 2, "quick start: %d console blocks run" % ran)

# ---- links ----
texts = {"README.md": readme}
texts.update({d: read(d) for d in docs})
for path, text in sorted(texts.items()):
    body = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", body):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, frag = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if not os.path.exists(dest):
            t.bad("%s links to %s, which does not exist" % (path, target), show=True)
            continue
        t.ok()
        if frag:
            check(dest.endswith(".md") and frag in anchors(read(dest)),
                  "%s links to %s: no such heading in %s" % (path, target, dest))
reference = "\n".join(section(readme, "Reference") or [])
for d in docs:
    check("](%s)" % d in reference, "README's Reference does not list %s" % d)
check(len(docs) >= 10, "doc/ holds %d documents" % len(docs))

# ---- paths named, and what is never named ----
ROOTS = r"(?:src|tests|tools|zones|man|fuzz|bench|grammar|doc|\.ci)"
for path, text in sorted(texts.items()):
    for p in sorted(set(re.findall(r"`(%s/[^`\s]*)`" % ROOTS, text))):
        p = p.rstrip("/")
        if re.search(r"[*A-Z]{2,}|\*|\.\.\.", p.partition("/")[2]):
            continue   # a placeholder or a glob: tests/GROUP/check_NAME.sh, tests/test_*.c
        check(os.path.exists(p), "%s names %s, which does not exist" % (path, p))
    for pattern, what in ((r"\bSPEC\.md\b", "SPEC.md"), (r"\bseeds?/", "a seeds folder"),
                          (r"(?<![\w\\&`])(?<!UTS )#\d+\b", "an issue number"),
                          (r"\bissue \d+", "an issue number")):
        m = re.search(pattern, text)
        check(not m, "%s mentions %s: %r" % (path, what, m and m.group(0)))

# ---- the checks' words in a SARIF log are doc/checks.md's: src/check/registry_help.c is what
# tools/gen_check_help.py makes of it now (make tables) ----
gen = subprocess.run([sys.executable, "tools/gen_check_help.py", "doc/checks.md"],
                     capture_output=True, text=True)
check(gen.returncode == 0 and gen.stdout == read("src/check/registry_help.c"),
      "src/check/registry_help.c is not what tools/gen_check_help.py makes of doc/checks.md: "
      "make tables", gen.stderr)
t.finish()
