"""check_man.py -- each man page documents what its command's --help lists, and no more.

- zonepuny: the options of `zonepuny --help` (its usage lines and its option list) are the
  options of man/zonepuny.1 (its SYNOPSIS and the tags of its OPTIONS), in both directions;
  a value an option's help names (--idna=2003|2008, --format=gcc|json|sarif|github,
  --check-names=fail|warn|ignore, --color=auto|always|never) is named in the man page's entry
  for it, and the reverse.
- zonepuny-reload: the same between `zonepuny-reload --help` and man/zonepuny-reload.1.
- zonepuny: every whole-zone check `zonepuny --help` lists (the names -W takes) is named in
  the man page's WHOLE-ZONE CHECKS and has a row in doc/checks.md, and doc/checks.md has a row
  for no other name.
- Both pages: STANDARDS names RFC 5890, 5891, 5892, 5893 and UTS #46 (zonepuny.1), SEE ALSO the
  other page and kzonecheck(1); the footer's version is @VERSION@, which make install fills in
  (tests/cli/check_install.sh holds it to the binary's); groff renders them without a warning.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally()
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
RELOAD = os.path.join(REPO_DIR, "tools", "zonepuny-reload")


def check(cond, *what):
    if cond:
        t.ok()
    else:
        t.bad(*what, show=True)


def help_text(cmd):
    env = dict(os.environ, ZONEPUNY=ZP, PATH=os.path.dirname(ZP) + os.pathsep + os.environ["PATH"])
    p = subprocess.run(cmd + ["--help"], capture_output=True, text=True, env=env)
    check(p.returncode == 0, "%s --help: exit %d" % (cmd[-1], p.returncode), p.stderr)
    return p.stdout


# An option at the start of a help line, its value after "=" or a blank (an upper-case word, or
# a quoted one), then maybe a comma and the next option: "-o, --output FILE", "--silent, -qq",
# "--rndc 'CMD ARGS'", "--format=gcc|json|sarif|github".
OPT = re.compile(r"(--?[a-zA-Z][a-zA-Z0-9-]*)(=(\S+)|\s+(?:[A-Z][A-Z-]*\b|'[^']*')(?:\.\.\.)?)?"
                 r"(,\s*)?")


def help_options(text):
    """{option: values} of a --help: the options its usage lines name, and each option-list
    line's leading options with the values written after '=' (a|b|c)."""
    opts = {}
    lines = text.splitlines()
    usage = lines[:next((i for i, ln in enumerate(lines) if not ln.strip()), len(lines))]
    for ln in usage:   # "usage: zonepuny --check [OPTIONS] ZONEFILE...   validate zones, ..."
        for o in re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", re.split(r"\s{3,}", ln.strip())[0]):
            opts.setdefault(o, set())
    for ln in lines:
        m = re.match(r" {2,8}(?=-)", ln)   # (not a continuation line)
        if not m:
            continue
        pos = m.end()
        while True:
            m = OPT.match(ln, pos)
            if not m:
                break
            opts.setdefault(m.group(1), set())
            if m.group(3):
                opts[m.group(1)] |= set(m.group(3).split("|"))
            pos = m.end()
            if not m.group(4):
                break
    return opts


def man_sections(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    secs, name = {}, None
    for ln in text.splitlines():
        m = re.match(r"\.SH\s+\"?([^\"]+)\"?", ln)
        if m:
            name = m.group(1).strip()
            secs[name] = []
        elif name:
            secs[name].append(ln)
    return text, secs


def roff_plain(s):
    s = re.sub(r"\\f[BIRP]|\\f\(..|\\&|\\c", "", s)
    s = s.replace("\\-", "-").replace("\\e", "\\")
    s = re.sub(r"^\.(B|I|BI|BR|IR|RB|IB)\s+", "", s)
    return s.replace('"', "")


def man_options(secs):
    """{option: values} of a man page: the options its SYNOPSIS names, and the tags of its
    OPTIONS (the line after each .TP), with the values written after '=' (a|b|c); an entry's
    text is kept to look for the values there too."""
    opts, entries = {}, {}
    for ln in secs.get("SYNOPSIS", []):
        for o in re.findall(r"(?<![\w-])(--?[a-z][a-z0-9-]*)", roff_plain(ln)):
            opts.setdefault(o, set())
    lines = secs.get("OPTIONS", [])
    for i, ln in enumerate(lines):
        if ln.strip() != ".TP" or i + 1 >= len(lines):
            continue
        tag = roff_plain(lines[i + 1])
        body = []
        for b in lines[i + 2:]:
            if b.strip() in (".TP", ".PP") or b.startswith(".SH"):
                break
            body.append(roff_plain(b))
        names = re.findall(r"(?<![\w-])(--?[a-zA-Z][a-zA-Z0-9-]*)(?:\s*=\s*(\S+))?", tag)
        for o, v in names:
            if o == "--":
                continue
            opts.setdefault(o, set())
            if v and "|" in v:
                opts[o] |= set(v.split("|"))
            entries[o] = entries.get(o, "") + " " + tag + " " + " ".join(body)
    return opts, entries


def compare(page, helped, manned, entries):
    for o in sorted(helped):
        check(o in manned, "%s: --help lists %s, the man page's OPTIONS do not" % (page, o))
    for o in sorted(manned):
        check(o in helped, "%s: the man page documents %s, --help does not list it" % (page, o))
    for o in sorted(set(helped) & set(manned)):
        for v in sorted(helped[o]):
            check(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(v), entries.get(o, "")),
                  "%s: --help gives %s the value %s, the man page's entry does not" % (page, o, v))
        for v in sorted(manned[o] - helped[o]):
            t.bad("%s: the man page gives %s the value %s, --help does not" % (page, o, v),
                  show=True)
    check(len(helped) >= 5, "%s: --help lists only %s" % (page, sorted(helped)))


if not os.access(ZP, os.X_OK):
    t.skip("no zonepuny at %s: make" % ZP)
    t.finish()

# -- zonepuny ----------------------------------------------------------------------------------
page = "man/zonepuny.1"
text, secs = man_sections(os.path.join(REPO_DIR, page))
helped = help_options(help_text([ZP]))
manned, entries = man_options(secs)
compare(page, helped, manned, entries)
# (the parse itself: what both must hold)
for o in ("-o", "--output", "--check", "--to-ascii", "--idna", "-W", "--silent", "-qq", "-h"):
    check(o in helped and o in manned, "%s: %s not found on both sides" % (page, o))
check(helped.get("--idna") == {"2003", "2008"}, "--help: --idna's values", helped.get("--idna"))
std = " ".join(roff_plain(ln) for ln in secs.get("STANDARDS", []))
for rfc in ("RFC 1035", "RFC 3490", "RFC 3491", "RFC 3492", "RFC 5890", "RFC 5891", "RFC 5892",
            "RFC 5893", "Technical Standard #46"):
    check(re.search(r"%s\b \(" % re.escape(rfc), std), "%s: STANDARDS: no %s (with what it is for)"
          % (page, rfc))
see = " ".join(secs.get("SEE ALSO", []))
for ref in (r"zonepuny\-reload (1)", "kzonecheck (1)", r"named\-checkzone (1)"):
    check(ref in see, "%s: SEE ALSO lacks %s" % (page, ref))

# the -W names: --help's list of whole-zone checks, the man page's section, doc/checks.md's rows
htext = help_text([ZP])
wnames = re.findall(r"^  ([a-z0-9][a-z0-9-]+) +(?:error|warning|off) ", htext.split("\nWhole-zone checks", 1)[-1],
                    re.M)
check(len(wnames) >= 30, "--help lists only %d whole-zone checks" % len(wnames))
whole = " ".join(roff_plain(ln) for ln in secs.get("WHOLE-ZONE CHECKS", []))
with open(os.path.join(REPO_DIR, "doc", "checks.md"), encoding="utf-8") as f:
    rows = set()
    for ln in f:
        if ln.startswith("| `"):
            rows |= set(re.findall(r"`([a-z0-9-]+)`", ln.split(" | ")[0]))
for w in wnames:
    check(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(w), whole),
          "%s: WHOLE-ZONE CHECKS does not name %s, which -W takes" % (page, w))
    check(w in rows, "doc/checks.md: no row for %s, which -W takes" % w)
for r in sorted(rows - set(wnames)):
    t.bad("doc/checks.md: a row for %s, which is no check -W takes" % r, show=True)

# -- zonepuny-reload ---------------------------------------------------------------------------
rpage = "man/zonepuny-reload.1"
rtext, rsecs = man_sections(os.path.join(REPO_DIR, rpage))
rhelped = help_options(help_text(["bash", RELOAD]))
rmanned, rentries = man_options(rsecs)
rhelped.pop("--", None)
compare(rpage, rhelped, rmanned, rentries)
check("zonepuny (1)" in " ".join(rsecs.get("SEE ALSO", [])), "%s: SEE ALSO lacks zonepuny(1)" % rpage)

# -- both: the footer's version, and groff's warnings -------------------------------------------
for p, txt in ((page, text), (rpage, rtext)):
    th = next((ln for ln in txt.splitlines() if ln.startswith(".TH ")), "")
    check('"zonepuny @VERSION@"' in th, "%s: .TH's version is not @VERSION@: %s" % (p, th))
    if shutil.which("groff"):
        for dev in ([], ["-Tutf8"]):
            g = subprocess.run(["groff", "-ww", "-z", "-man"] + dev + [os.path.join(REPO_DIR, p)],
                               capture_output=True, text=True)
            check(g.returncode == 0 and g.stderr == "", "%s: groff %s warns:\n%s" %
                  (p, " ".join(dev), g.stderr))
    else:
        t.skip("groff not installed: %s is not rendered" % p)
t.finish()
