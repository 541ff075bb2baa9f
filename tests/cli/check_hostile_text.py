#!/usr/bin/python3
"""check_hostile_text.py -- no output line of zonepuny can forge a CI command or a terminal escape.

A zone's file name, an $INCLUDE's name and the lines quoted under messages are the zone
author's, who may be an attacker where zonepuny gates pull requests. Zones here carry, in their
file names and on lines with errors: line feeds followed by GitHub workflow commands
("::error file=README.md::forged", "::add-mask::"), ESC sequences (window title, clear screen, a
green "all zones OK"), C1 controls (CSI as one octet), DEL, U+2028 and U+2029, a right-to-left
override, and octets that are no UTF-8. Through `zonepuny --check` in every format and through
tools/pre-commit-hook:
- GCC's text: no line starts with "::", and no octet below 0x20 but the tab, no DEL, no C1
  control, no U+2028/2029/202A-202E/2066-2069, no octet that is no UTF-8 (each is written as
  \\DDD, as a zone writes an octet); the caret still stands under the column the message names;
- --format=github: every line is one of zonepuny's own commands, one per diagnostic;
- --format=json: every line is one JSON object; --format=sarif: one JSON document.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
t = Tally(shown=20)

FORGED = b"\n::error file=README.md,line=1::forged\n::add-mask::x\n"
NASTY = (b"\x1b]0;pwned\x07 \x1b[2J\x1b[32mall zones OK\x1b[0m \x9b31m \x7f \xe2\x80\xa8 "
         b"\xe2\x80\xa9 \xe2\x80\xae \xc3")
BAD = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]")


def zones(d):
    """Two zones with hostile names and lines, one of them including a hostile file name."""
    names = [b"x" + FORGED + b".example.zone", b"y\x1b[2J.example.zone"]
    inc = b"frag" + FORGED.replace(b"/", b"_") + b"\x1b[31m.inc"
    with open(os.path.join(d.encode(), inc), "wb") as f:
        f.write(b"bad\x1b[2J A 300.1.1.1\n")
    for i, n in enumerate(names):
        with open(os.path.join(d.encode(), n), "wb") as f:
            f.write(b"$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n")
            f.write(b"bad%d A 300.1.1.1 ; " % i + NASTY + FORGED + b"\n")
            f.write(b"w\xe2\x80\xaex" + b" A 192.0.2.2 ; " + NASTY + b"\n")
            f.write(b"\tTXT \"" + b"\x1b[2J" + b"\" ; " + NASTY + b"\n")
            if i == 0:
                f.write(b"$INCLUDE \"" + inc + b"\"\n")
    return names


def valid_utf8_lines(out):
    for line in out.split(b"\n"):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return False
    return True


def check_gcc(out, what):
    lines = out.split(b"\n")
    bad = [ln for ln in lines if ln.startswith(b"::") or BAD.search(ln)]
    if bad or not valid_utf8_lines(out):
        t.bad("%s: GCC's text carries raw controls or a line starting '::': %r" % (what, bad[:3]))
    else:
        t.ok()
    # each caret under its column: the quoted line's escapes widen it as they widen the text
    for k, ln in enumerate(lines):
        m = re.match(rb"^.*?:(\d+):(\d+): (error|warning): ", ln)
        if not m or k + 2 >= len(lines) or not re.match(rb"^ +\d+ \| ", lines[k + 1]):
            continue
        quote = lines[k + 1].split(b" | ", 1)[1]
        caret = lines[k + 2].split(b" | ", 1)[1] if b" | " in lines[k + 2] else b""
        # what the quote shows before the caret, counted as the file's characters (the octets
        # that do not continue a UTF-8 sequence, an escape \DDD its octet)
        chars = 0
        i = 0
        head = quote[:len(caret) - 1]
        while i < len(head):
            if re.match(rb"\\\d{3}", head[i:]):
                octet = int(head[i + 1:i + 4])
                chars += (octet & 0xC0) != 0x80
                i += 4
            else:
                chars += (head[i] & 0xC0) != 0x80
                i += 1
        if caret.endswith(b"^") and chars + 1 == int(m.group(2)):
            t.ok()
        else:
            t.bad("%s: caret at character %d, the message says column %s: %r / %r" % (
                what, chars + 1, m.group(2).decode(), quote, caret))


with tempfile.TemporaryDirectory() as d:
    names = zones(d)
    p = subprocess.run([zonepuny, "--check", "--max-errors=0", d], capture_output=True)
    if p.returncode == 1:
        t.ok()
    else:
        t.bad("--check: exit %d" % p.returncode)
    check_gcc(p.stderr, "--check")
    for fmt in ("github", "json", "sarif"):
        p = subprocess.run([zonepuny, "--check", "--max-errors=0", "--format=" + fmt, d],
                           capture_output=True)
        out = p.stdout
        if fmt == "github":
            lines = [ln for ln in out.split(b"\n") if ln]
            ours = [ln for ln in lines if re.match(rb"^::(error|warning|notice) (file=[^:]*,)?"
                                                   rb"(line=\d+,col=\d+,endColumn=\d+,)?"
                                                   rb"title=zonepuny [a-z0-9-]+::", ln)]
            n = json.loads(subprocess.run([zonepuny, "--check", "--max-errors=0",
                                           "--format=sarif", d], capture_output=True).stdout)
            want = len(n["runs"][0]["results"])
            if len(ours) == len(lines) == want and not BAD.search(out.replace(b"\n", b"")):
                t.ok()
            else:
                t.bad("github: %d lines, %d of them zonepuny's commands, %d diagnostics: %r" % (
                    len(lines), len(ours), want, lines[:4]))
        elif fmt == "json":
            try:
                objs = [json.loads(ln) for ln in out.split(b"\n") if ln]
                t.ok() if objs and not BAD.search(out.replace(b"\n", b"")) else t.bad("json: %r" % out[:200])
            except ValueError as e:
                t.bad("json: a line is no JSON object: %s" % e)
        else:
            try:
                json.loads(out)
                t.ok()
            except ValueError as e:
                t.bad("sarif: no JSON document: %s" % e)
    # the hook, in a repository holding the zones
    repo = os.path.join(d, "repo")
    os.mkdir(repo)
    for n in os.listdir(d.encode()):
        if n != b"repo":
            shutil.copy(os.path.join(d.encode(), n), os.path.join(repo.encode(), n))
    hook_home = os.path.join(d, "hook")
    os.makedirs(os.path.join(hook_home, "tools"))
    os.makedirs(os.path.join(hook_home, "build"))
    shutil.copy(os.path.join(REPO_DIR, "tools", "pre-commit-hook"), os.path.join(hook_home, "tools"))
    with open(os.path.join(hook_home, "build", "zonepuny"), "w") as f:
        f.write("#!/bin/sh\nexec '%s' \"$@\"\n" % zonepuny)
    os.chmod(os.path.join(hook_home, "build", "zonepuny"), 0o755)
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null")
    subprocess.run(["git", "init", "-q", repo], check=True, env=env)
    subprocess.run(["git", "-C", repo, "add", "."], check=True, env=env)
    p = subprocess.run(["bash", os.path.join(hook_home, "tools", "pre-commit-hook")] + names,
                       cwd=repo.encode(), capture_output=True, env=env)
    if p.returncode == 1:
        t.ok()
    else:
        t.bad("hook: exit %d: %r" % (p.returncode, p.stderr[-300:]))
    check_gcc(p.stdout + p.stderr, "hook")
t.finish()
