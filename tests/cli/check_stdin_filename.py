"""check_stdin_filename.py -- --stdin-filename NAME: standard input read as the file NAME.

An editor lints the text it holds, not the file on disk: it pipes the text in and names the
file. The oracle is zonepuny itself on the file: for every zone under zones/, `--check NAME -`
with NAME's text on standard input says exactly what `--check NAME` says (stdout, stderr, exit
status), in GCC's format and in JSON, and a conversion writes the same zone. Then what the name
gives, each case built so that it fails without the option: the origin --check takes from the
name, $INCLUDE resolved in NAME's directory (not the working directory) and fenced there, a
NAME that does not exist (an unsaved buffer), --since against NAME's committed version, and the
uses refused.
"""
import glob
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally(shown=20)
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
RUN = os.environ.get("ZONEPUNY_RUN", "").split()
# signatures are judged as of a fixed time: the two runs of a pair must not straddle a second
# in which one expires
FIXED = ["--time", "20260101000000"]


def run(args, stdin=b"", cwd=REPO_DIR):
    p = subprocess.run(RUN + [ZP] + args, input=stdin, capture_output=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def same(what, a, b):
    if a == b:
        t.ok()
    else:
        t.bad(what, "\n  as a file:  ", a[0], a[1][:300], a[2][:600],
              "\n  from stdin: ", b[0], b[1][:300], b[2][:600])


zones = sorted(glob.glob("zones/**/*.zone", root_dir=REPO_DIR, recursive=True))
for z in zones:
    with open(os.path.join(REPO_DIR, z), "rb") as f:
        text = f.read()
    for fmt in ("--format=gcc", "--format=json"):
        same("--check %s %s" % (fmt, z), run(["--check", fmt] + FIXED + [z]),
             run(["--check", fmt] + FIXED + ["--stdin-filename", z, "-"], text))
    same("conversion of " + z, run(FIXED + [z]), run(FIXED + ["--stdin-filename", z], text))
t.need_pass("no zone under zones/")
print("%d zones read both ways" % len(zones))

ZONE = (b"$TTL 3600\n@ SOA ns hostmaster 1 7200 900 1209600 300\n@ NS ns\nns A 192.0.2.1\n"
        b"$INCLUDE part.inc\n")
with tempfile.TemporaryDirectory() as d:
    sub = os.path.join(d, "sub")
    os.mkdir(sub)
    with open(os.path.join(sub, "part.inc"), "wb") as f:
        f.write(b"www A 192.0.2.2\n")
    with open(os.path.join(d, "outside.inc"), "wb") as f:
        f.write(b"evil A 192.0.2.3\n")
    # the origin from the name, $INCLUDE in its directory: run from d, sub/ named
    rc, out, err = run(["--check", "--stdin-filename", "sub/example.com.zone", "-"], ZONE, cwd=d)
    if rc == 0 and b"1 file, 4 records, 0 errors" in err:
        t.ok()
    else:
        t.bad("named: origin and $INCLUDE from the name", rc, err)
    rc, out, err = run(["--check", "-"], ZONE, cwd=d)
    if rc == 1 and b"needs an origin" in err:
        t.ok()
    else:
        t.bad("unnamed: no origin (the case above would pass without the option)", rc, err)
    rc, out, err = run(["--check", "-z", "example.com", "-"], ZONE, cwd=d)
    if rc == 1 and b"part.inc" in err and b"-:5:" in err:
        t.ok()
    else:
        t.bad("unnamed: $INCLUDE looked for in the working directory", rc, err)
    # messages name NAME, quote its lines (held in memory), and count columns in bytes on asking
    bad = ZONE.replace(b"ns A 192.0.2.1", b"m\xc3\xbcnchen A 192.0.2.300")
    rc, out, err = run(["--check", "--column-unit=byte", "--stdin-filename",
                        "sub/example.com.zone", "-"], bad, cwd=d)
    if rc == 1 and b"sub/example.com.zone:4:12: error: invalid IPv4" in err and \
            b"     4 | m\xc3\xbcnchen A 192.0.2.300" in err:
        t.ok()
    else:
        t.bad("the name, the quoted line, byte columns", rc, err)
    # (without --stdin-filename, --column-unit=byte holds standard input too: its lines quoted)
    rc, out, err = run(["--check", "--column-unit=byte", "-z", "example.com", "-"],
                       bad.replace(b"$INCLUDE part.inc\n", b""), cwd=d)
    if rc == 1 and b"-:4:12: error: invalid IPv4" in err and b"     4 | m" in err:
        t.ok()
    else:
        t.bad("standard input, byte columns", rc, err)
    # the fence: NAME's directory is the include root, as a file's own
    esc = ZONE.replace(b"part.inc", b"../outside.inc")
    named = run(["--check", "--stdin-filename", "sub/example.com.zone", "-"], esc, cwd=d)
    with open(os.path.join(sub, "example.com.zone"), "wb") as f:
        f.write(esc)
    filed = run(["--check", "sub/example.com.zone"], cwd=d)
    if named[0] == 1 and b"outside" in named[2] and named == filed:
        t.ok()
    else:
        t.bad("$INCLUDE outside NAME's directory", named, filed)
    # a conversion: the name in messages, $INCLUDE from its directory; no origin from names
    rc, out, err = run(["-z", "example.com", "--stdin-filename", "sub/new.zone"], ZONE, cwd=d)
    if rc == 0 and b"www.example.com.\t3600\tIN\tA\t192.0.2.2" in out:
        t.ok()
    else:
        t.bad("conversion with a name that does not exist", rc, out[-300:], err)
    rc, out, err = run(["--stdin-filename", "sub/new.zone"], b"x A 192.0.2.1\n", cwd=d)
    if rc == 1 and err.startswith(b"sub/new.zone:1:1: error: relative name"):
        t.ok()
    else:
        t.bad("conversion: messages name NAME", rc, err)

# --since REV compares the text given with NAME as it was at REV (an editor's unsaved change)
with tempfile.TemporaryDirectory() as d:
    git = ["git", "-C", d, "-c", "user.name=t", "-c", "user.email=t@example.org"]
    z = os.path.join(d, "example.com.zone")
    with open(z, "wb") as f:
        f.write(ZONE.replace(b"$INCLUDE part.inc\n", b""))
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "zone"], check=True)
    edited = ZONE.replace(b"$INCLUDE part.inc\n", b"www A 192.0.2.80\n")
    rc, out, err = run(["--check", "--since", "HEAD", "--stdin-filename", z, "-"], edited, cwd=d)
    if rc == 1 and b"records changed since HEAD (0 removed, 1 added" in err and \
            err.startswith(z.encode() + b":2:"):
        t.ok()
    else:
        t.bad("--since with --stdin-filename: the text against NAME at HEAD", rc, err)

# refused: no standard input to name, or a command that reads no zone from it
for args in (["--check", "--stdin-filename", "a.zone", "zones/formats/main.zone"],
             ["--stdin-filename", "a.zone", "zones/formats/main.zone"],
             ["--check", "--stdin-filename", "-", "-"],
             ["--check", "--stdin-filename", "", "-"],
             ["--diff", "--stdin-filename", "a.zone", "-", "zones/formats/main.zone"],
             ["--to-ascii", "--stdin-filename", "a.zone"],
             ["--named-conf", "/dev/null", "--stdin-filename", "a.zone"]):
    rc, out, err = run(args, b"")
    if rc == 2 and b"--stdin-filename" in err:
        t.ok()
    else:
        t.bad("refused:", args, rc, err)
t.finish()
