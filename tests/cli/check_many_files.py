#!/usr/bin/python3
"""check_many_files.py -- diagnostics of one --check run over many zone files name the right file.

A seeded generator writes 600 small zones, a third of them with one to three mistakes on lines
of their own (a broken ACE label, a bad address, an RRset with two TTLs), padded with comments
of random length so that files' lines sit at every offset. zonepuny checks them all in one
process, in GCC's text and in JSON Lines. Each quoted line must be the line the message names,
read from that file here; each JSON end_column must be the column just past the field at
line:column of that file, worked out here from the line (a quoted string to its closing quote,
else to the next blank, ';', '(' or ')'), in characters. A file that holds no record is named in
every format. A fragment with an error that 30 zones $INCLUDE is told once, with a note that
lists the 29 other zones, and counts once: --max-errors 3 still reaches another zone's error.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

zonepuny = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
t = Tally(shown=20)


def end_column(line, col):
    """The 1-based column just past the field that starts at column col of line (characters)."""
    i = col - 1
    if i < len(line) and line[i] == '"':
        j = line.find('"', i + 1)
        return (j + 1 if j >= 0 else len(line)) + 1
    j = i
    while j < len(line) and line[j] not in " \t;()":
        j += 1
    return j + 1


def write_zones(d):
    rnd = random.Random(37)
    for i in range(600):
        lines = ["$TTL 300", "@ SOA ns h 1 2 3 4 5", "@ NS ns", "ns A 192.0.2.1"]
        for j in range(rnd.randint(1, 30)):
            lines.append("h%d A 192.0.2.%d ; %s" % (j, rnd.randint(1, 254),
                                                   "pad" * rnd.randint(0, 120)))
        if i % 3 == 0:
            for _ in range(rnd.randint(1, 3)):
                lines.insert(rnd.randint(4, len(lines)), rnd.choice([
                    "xn--zzzz-9999 A 192.0.2.2", "bad%d A 300.1.1.%d" % (i, i % 200),
                    "ns %d A 192.0.2.9" % rnd.randint(1, 99), 'txt TXT "unterminated']))
        with open(os.path.join(d, "y%d.example.zone" % i), "w") as f:
            f.write("\n".join(lines) + "\n")


def file_line(path, n):
    with open(path, encoding="utf-8", errors="replace") as f:
        for k, line in enumerate(f, 1):
            if k == n:
                return line.rstrip("\n")
    return None


with tempfile.TemporaryDirectory() as d:
    write_zones(d)
    gcc = subprocess.run([zonepuny, "--check", "--max-errors=0", d], capture_output=True,
                         text=True)
    out = gcc.stderr.splitlines()
    quotes = 0
    for k, line in enumerate(out):
        m = re.match(r"^(\S+):(\d+):(\d+): (error|warning): ", line)
        q = re.match(r"^ *(\d+) \| (.*)$", out[k + 1]) if m and k + 1 < len(out) else None
        if not q:
            continue
        quotes += 1
        want = file_line(m.group(1), int(m.group(2)))
        if q.group(1) == m.group(2) and want is not None and q.group(2) == want:
            t.ok()
        else:
            t.bad("%s:%s: quoted %r, the file's line is %r" % (m.group(1), m.group(2),
                                                               q.group(2), want))
    if quotes < 150:
        t.bad("only %d quoted lines in the GCC text (exit %d)" % (quotes, gcc.returncode),
              show=True)
    js = subprocess.run([zonepuny, "--check", "--format=json", "--max-errors=0", d],
                        capture_output=True, text=True)
    ends = 0
    for line in js.stdout.splitlines():
        o = json.loads(line)
        if o["line"] is None:
            continue
        ends += 1
        text = file_line(o["file"], o["line"])
        want = end_column(text, o["column"]) if text is not None else None
        if o["end_column"] == want:
            t.ok()
        else:
            t.bad("%s:%d:%d: end_column %s, the file's line gives %s (%r)" % (
                o["file"], o["line"], o["column"], o["end_column"], want, text))
    if ends != quotes:
        t.bad("%d located diagnostics in JSON, %d quoted in GCC's text" % (ends, quotes),
              show=True)
    print("%d quoted lines and %d end columns over 600 files" % (quotes, ends))

    # a file with no record at all: named in every format
    empty = os.path.join(d, "empty.example.zone")
    open(empty, "w").close()
    for fmt, named in (("gcc", lambda o: empty + " holds no record" in o),
                       ("json", lambda o: '"file":"%s"' % empty in o),
                       ("github", lambda o: "::error file=%s," % empty in o),
                       ("sarif", lambda o: '"uri":"%s"' % empty in o)):
        p = subprocess.run([zonepuny, "--check", "--format=" + fmt, empty], capture_output=True,
                           text=True)
        if p.returncode == 1 and named(p.stdout + p.stderr):
            t.ok()
        else:
            t.bad("an empty file, --format=%s: exit %d, the file not named: %s" % (
                fmt, p.returncode, (p.stdout + p.stderr)[:300]))

with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "inc"))
    with open(os.path.join(d, "inc", "common.inc"), "w") as f:
        f.write("ok A 192.0.2.8\nxn--zzzz-9999 A 192.0.2.9\n")
    zones = ["f%02d.example.zone" % i for i in range(30)]
    for z in zones:
        with open(os.path.join(d, z), "w") as f:
            f.write("$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
                    "$INCLUDE inc/common.inc\n")
    with open(os.path.join(d, "zz.example.zone"), "w") as f:
        f.write("$TTL 300\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\nbad A 300.1.1.1\n")
    p = subprocess.run([zonepuny, "--check", "--format=json", "--max-errors=3", d],
                       capture_output=True, text=True)
    objs = [json.loads(line) for line in p.stdout.splitlines()]
    frag = [o for o in objs if (o["file"] or "").endswith("inc/common.inc") and
            o["severity"] == "error"]
    notes = [o for o in objs if o["severity"] == "note"]
    other = [o for o in objs if (o["file"] or "").endswith("zz.example.zone") and
             o["severity"] == "error"]
    listed = set(re.findall(r"f\d\d\.example\.zone", notes[0]["message"].split("told once:")[-1])) \
        if notes else set()
    if p.returncode == 1 and len(frag) == 1 and frag[0]["line"] == 2 and len(other) == 1:
        t.ok()
    else:
        t.bad("a fragment 30 zones include: exit %d, %d errors told of it, %d of the other "
              "zone's:\n%s" % (p.returncode, len(frag), len(other), p.stdout[:600]))
    first = os.path.basename(frag[0]["include_chain"][0]["file"]) if frag else None
    if len(notes) == 1 and notes[0]["line"] == 2 and first and \
            listed | {first} == set(zones) and first not in listed:
        t.ok()
    else:
        t.bad("the note of the zones that include the fragment: %s" % notes)
    if "2 errors" in p.stderr:
        t.ok()
    else:
        t.bad("the summary counts the fragment's error once: %s" % p.stderr.strip())
t.finish()
