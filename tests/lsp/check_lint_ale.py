"""check_lint_ale.py -- doc/editors.md's ALE linter definition as the page writes it, in
Debian's vim-ale under headless neovim, over tests/lsp/editor.zone: ALE gives zonepuny the
buffer's text on standard input with the file's name (--stdin-filename), so the origin is the
file's (example.com), and reads GCC's format with byte columns (--column-unit=byte), as vim
counts them. Driven by tests/lsp/ale_client.lua.
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
ALE = "/usr/share/vim-ale"   # (Debian's vim-ale)
# lines 5, 6 and 7 of editor.zone: "münchen A " is 11 bytes (the address at 12), "www." 4
# (the label at 5), "@ MX 10 " 8 (the target at 9)
WANT = ["loc 5 12 E", "loc 6 5 E", "loc 7 9 W"]

if not NVIM or not os.path.isdir(ALE):
    t.skip("nvim or vim-ale is not installed (make deps-test installs both)")
    t.finish()
with tempfile.TemporaryDirectory() as d:
    zone = os.path.join(d, "example.com.zone")
    shutil.copy(os.path.join(REPO_DIR, "tests/lsp/editor.zone"), zone)
    linters = os.path.join(d, ".vim", "ale_linters", "bindzone")
    os.makedirs(linters)
    with open(os.path.join(linters, "zonepuny.vim"), "w", encoding="utf-8") as f:
        f.write(doc_block("editors.md", "vim", "[ALE]"))
    init = os.path.join(d, "init.vim")
    with open(init, "w") as f:
        f.write("set runtimepath^=%s\nlet &runtimepath = expand('~/.vim') . ',' . &runtimepath\n"
                "filetype plugin on\nlet g:ale_linters = {'bindzone': ['zonepuny']}\n" % ALE)
    bindir = os.path.join(d, "bin")
    os.mkdir(bindir)
    os.symlink(os.path.abspath(ZP), os.path.join(bindir, "zonepuny"))
    result = os.path.join(d, "result")
    env = dict(os.environ, HOME=d, ZONE=zone, RESULT=result, XDG_CONFIG_HOME=d,
               XDG_STATE_HOME=d, XDG_DATA_HOME=d,
               PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    p = subprocess.run([NVIM, "--headless", "--clean", "-u", init, "-i", "NONE", "-c",
                        "luafile " + os.path.join(REPO_DIR, "tests/lsp/ale_client.lua")],
                       env=env, capture_output=True, timeout=600, cwd=d)
    lines = open(result, encoding="utf-8").read().splitlines() if os.path.exists(result) else []
    if "ft bindzone" in lines:
        t.ok()
    else:
        t.bad("neovim did not take the zone for bindzone:", lines, p.stderr.decode()[-600:])
    got = [ln for ln in lines if ln.startswith("loc ")]
    if got == WANT:
        t.ok()
    else:
        t.bad("ALE's location list:", got, "want", WANT, p.stderr.decode()[-600:])
t.finish()
