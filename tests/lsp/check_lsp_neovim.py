"""check_lsp_neovim.py -- zonepuny --lsp under a real client: neovim (headless, Debian's), its
built-in LSP client set up by doc/editors.md's init.lua as the page writes it, driven by
tests/lsp/neovim_client.lua; and the page's makeprg and errorformat for vim's quickfix list.

tests/lsp/editor.zone has an error on a line with a two-byte character before it, a non-canonical ACE label
and an MX target written without its final dot. Neovim holds diagnostics in bytes, converted
from the server's UTF-16 ranges; the expected ones are counted by hand below. Then a hover, the
two quick fixes applied as neovim applies them (the diagnostics follow the edits), an edit by
hand, and the server stopped.
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
NVIM = shutil.which("nvim")
# tests/lsp/editor.zone, the zone both editors' tests open: lines 5, 6 and 7 (from 1) are
# "münchen A 192.0.2.300", "www.xn--mnchen-psa A 192.0.2.1" and "@ MX 10 mail.example.net"
with open(os.path.join(REPO_DIR, "tests/lsp/editor.zone"), encoding="utf-8") as f:
    ZONE = f.read()
# (0-based lines, byte columns, the end past the field)
WANT_OPEN = {
    # "münchen A " is 8 + 3 bytes: the address at 11, 11 bytes: 22
    "diag open 4 11 4 22 read",
    # "www." 4 bytes: the label at 4, the field to 18
    "diag open 5 4 5 18 read",
    # "@ MX 10 " 8 bytes: the target at 8, 16 bytes: 24
    "diag open 6 8 6 24 mx-target",
}

if not NVIM:
    t.skip("nvim is not installed (make deps-test installs neovim)")
    t.finish()
with tempfile.TemporaryDirectory() as d:
    zone = os.path.join(d, "example.com.zone")
    with open(zone, "w", encoding="utf-8") as f:
        f.write(ZONE)
    result = os.path.join(d, "result")
    init = os.path.join(d, "init.lua")
    vimrc = doc_block("editors.md", "vim", "## Vim's quickfix list")
    with open(init, "w", encoding="utf-8") as f:
        f.write(doc_block("editors.md", "lua", "## Neovim"))
        # (the page's vim lines, for :make; a zone named in makeprg by its buffer's name)
        f.write("\nvim.cmd([[\n%s]])\n" % vimrc)
    # zonepuny as the page has it: on PATH (the one built here, or the sanitized one)
    path = os.path.dirname(os.path.abspath(ZP)) + os.pathsep + os.environ.get("PATH", "")
    bindir = os.path.join(d, "bin")
    os.mkdir(bindir)
    if os.path.basename(ZP) != "zonepuny":
        os.symlink(os.path.abspath(ZP), os.path.join(bindir, "zonepuny"))
        path = bindir + os.pathsep + path
    env = dict(os.environ, ZONE=zone, RESULT=result, HOME=d, XDG_STATE_HOME=d,
               XDG_CONFIG_HOME=d, XDG_DATA_HOME=d, PATH=path)
    p = subprocess.run([NVIM, "--headless", "--clean", "-u", init, "-i", "NONE", "-c",
                        "luafile " + os.path.join(REPO_DIR, "tests/lsp/neovim_client.lua")],
                       env=env, capture_output=True, timeout=600, cwd=d)
    lines = open(result, encoding="utf-8").read().splitlines() if os.path.exists(result) else []
    if not lines:
        t.bad("neovim wrote no result", p.returncode, p.stderr.decode()[-800:])
    for ln in lines:
        if ln.startswith("ok "):
            t.ok()
        elif ln.startswith("FAIL "):
            t.bad("neovim:", ln[5:])
    got = {ln for ln in lines if ln.startswith("diag open ")}
    if got == WANT_OPEN:
        t.ok()
    else:
        t.bad("diagnostics as neovim holds them:", sorted(got), "want", sorted(WANT_OPEN))
    want_fixed = ["line 5 www.xn--mnchen-3ya A 192.0.2.1", "line 6 @ MX 10 mail.example.net."]
    fixed = [ln for ln in lines if ln.startswith("line ")]
    if fixed == want_fixed:
        t.ok()
    else:
        t.bad("the buffer after the quick fixes:", fixed)
    if not any(ln.startswith("diag end ") for ln in lines) and "ok clean once the address is mended" in lines:
        t.ok()
    else:
        t.bad("diagnostics left at the end:", [ln for ln in lines if ln.startswith("diag end")])
    # :make on the file as saved (the original text): 1-based lines, byte columns; "münchen A "
    # is 11 bytes, so the address at 12; the label after "www." at 5; the target after "@ MX 10 "
    # at 9
    qf = [ln for ln in lines if ln.startswith("qf ")]
    if qf == ["qf 5 12 e", "qf 6 5 e", "qf 7 9 w"]:
        t.ok()
    else:
        t.bad("the quickfix list of :make:", qf)
t.finish()
