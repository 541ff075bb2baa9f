"""check_lsp_emacs.py -- zonepuny --lsp under Emacs's eglot (Debian's emacs-nox and elpa-eglot,
in batch), set up by doc/editors.md's eglot lines as the page writes them; driven by
tests/lsp/emacs_client.el.

tests/lsp/editor.zone, as Neovim's test has it: an error after a two-byte character, a non-canonical
ACE label, an MX target without its final dot. Emacs counts columns in characters; the expected
ones are counted by hand below.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally, doc_block  # noqa: E402

t = Tally()
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
EMACS = shutil.which("emacs")
# tests/lsp/editor.zone, the zone both editors' tests open: lines 5, 6 and 7 (from 1) are
# "münchen A 192.0.2.300", "www.xn--mnchen-psa A 192.0.2.1" and "@ MX 10 mail.example.net"
with open(os.path.join(REPO_DIR, "tests/lsp/editor.zone"), encoding="utf-8") as f:
    ZONE = f.read()
WANT = [
    "diag 5 10 eglot-error read",       # "münchen A " is 10 characters
    "diag 6 4 eglot-error read",        # "www." 4
    "diag 7 8 eglot-warning mx-target",  # "@ MX 10 " 8
]

if not EMACS:
    t.skip("emacs is not installed (make deps-test installs emacs-nox and elpa-eglot)")
    t.finish()
with tempfile.TemporaryDirectory() as d:
    zone = os.path.join(d, "example.com.zone")
    with open(zone, "w", encoding="utf-8") as f:
        f.write(ZONE)
    init = os.path.join(d, "init.el")
    with open(init, "w", encoding="utf-8") as f:
        f.write(doc_block("editors.md", "elisp", "## Emacs"))
    result = os.path.join(d, "result")
    bindir = os.path.join(d, "bin")
    os.mkdir(bindir)
    os.symlink(os.path.abspath(ZP), os.path.join(bindir, "zonepuny"))   # (on PATH, as the page has it)
    env = dict(os.environ, ZONE=zone, RESULT=result, HOME=d,
               PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    p = subprocess.run([EMACS, "--batch", "-l", init, "-l",
                        os.path.join(REPO_DIR, "tests/lsp/emacs_client.el")],
                       env=env, capture_output=True, timeout=600, cwd=d)
    lines = open(result, encoding="utf-8").read().splitlines() if os.path.exists(result) else []
    if "mode dns-mode" in lines:
        t.ok()
    else:
        t.bad("Emacs did not open the zone in dns-mode:", lines, p.stderr.decode()[-600:])
    got = sorted(ln for ln in lines if ln.startswith("diag "))
    if got == WANT:
        t.ok()
    else:
        t.bad("diagnostics as flymake holds them:", got, "want", WANT, p.stderr.decode()[-800:])
t.finish()
