"""check_lsp_protocol.py -- zonepuny --lsp spoken to as a client speaks (LSP 3.17, JSON-RPC 2.0).

Each expected position is derived by hand beside its case (UTF-16 code units by default, bytes
when the client offers utf-8); each expected message comes from zonepuny --check on the same
text, the command line being the reference the server must agree with. Then the unhappy paths:
bodies that are not JSON, headers without a length, requests before initialize and after
shutdown, unknown methods, bad parameters, notifications for documents never opened, and the
exit status LSP prescribes. Under `make check-asan` the same script runs the sanitized binary.

No verdict waits on time: every read waits for the message it expects (or the process's end);
the deadline only keeps a hung server from hanging the suite.
"""
import json
import os
import resource
import selectors
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally()
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
RUN = os.environ.get("ZONEPUNY_RUN", "").split()
DEADLINE = 120   # seconds a message may take before the server counts as hung (a failure)


def check(cond, *what):
    if cond:
        t.ok()
    else:
        t.bad(*what)


class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen(RUN + [ZP, "--lsp"] + list(args), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""
        self.next_id = 0
        self.notes = []   # notifications read while waiting for something else

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _fill(self):
        sel = selectors.DefaultSelector()
        sel.register(self.p.stdout, selectors.EVENT_READ)
        if not sel.select(DEADLINE):
            raise TimeoutError("no message from the server")
        chunk = os.read(self.p.stdout.fileno(), 65536)
        if not chunk:
            raise EOFError("the server's output ended")
        self.buf += chunk

    def read(self):
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        length = None
        for line in head.split(b"\r\n"):
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v)
        while len(self.buf) < length:
            self._fill()
        body, self.buf = self.buf[:length], self.buf[length:]
        return json.loads(body)

    def request(self, method, params=None):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.response(self.next_id)

    def response(self, rid):
        while True:
            m = self.read()
            if "id" in m and "method" not in m and m["id"] == rid:
                return m
            self.notes.append(m)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def note(self, method, uri=None):
        """The next notification of method (for uri), read or already held."""
        while True:
            for i, m in enumerate(self.notes):
                if m.get("method") == method and (uri is None or m["params"].get("uri") == uri):
                    return self.notes.pop(i)
            self.notes.append(self.read())

    def diagnostics(self, uri):
        return self.note("textDocument/publishDiagnostics", uri)["params"]["diagnostics"]

    def end(self):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        rc = self.p.wait(DEADLINE)
        self.p.stdout.close()
        err = self.p.stderr.read()
        self.p.stderr.close()
        return rc, err


def uri(path):
    return "file://" + "".join(c if c.isalnum() or c in "-._~/" else
                               "".join("%%%02X" % b for b in c.encode()) for c in path)


def start(*args, utf8=False, root=None):
    s = Server(*args)
    caps = {"general": {"positionEncodings": ["utf-8", "utf-16"]}} if utf8 else {}
    params = {"processId": None, "capabilities": caps}
    if root:
        params["rootUri"] = uri(root)
    r = s.request("initialize", params)
    s.notify("initialized", {})
    return s, r


def open_doc(s, path, text, version=1):
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri(path), "languageId": "zone",
                                                       "version": version, "text": text}})


def rng(line, a, b):
    return {"start": {"line": line, "character": a}, "end": {"line": line, "character": b}}


def cli_messages(path, text, *args):
    """What zonepuny --check says of text named path: [(line, severity, check, message)]."""
    p = subprocess.run(RUN + [ZP, "--check", "--format=json"] + list(args) +
                       ["--stdin-filename", path, "-"], input=text.encode(), capture_output=True)
    return [(d["line"], d["severity"], d["check"], d["message"])
            for d in map(json.loads, p.stdout.decode().splitlines())]


def lsp_messages(diags):
    sev = {1: "error", 2: "warning", 3: "note"}
    return [(d["range"]["start"]["line"] + 1, sev[d["severity"]], d["code"], d["message"])
            for d in diags]


ZONE = ("$TTL 1h\n"
        "@ SOA ns hostmaster 1 7200 900 1209600 300\n"
        "@ NS ns\n"
        "ns A 192.0.2.1\n"
        "\U0001D54Fm\u00fcnchen A 192.0.2.300\n"
        "stra\u00dfe A 192.0.2.3\n"
        "xn--mnchen-3ya AAAA 2001:db8::1 ; comment\n")

with tempfile.TemporaryDirectory() as d:
    zpath = os.path.join(d, "example.com.zone")
    zuri = uri(zpath)

    # -- initialize: UTF-16 unless utf-8 is offered ---------------------------------------------
    s, r = start()
    caps = r.get("result", {}).get("capabilities", {})
    check(caps.get("positionEncoding") == "utf-16" and caps.get("hoverProvider") is True and
          caps.get("textDocumentSync", {}).get("change") == 1, "initialize: capabilities", r)
    check(r["result"].get("serverInfo", {}).get("name") == "zonepuny", "serverInfo", r)

    # -- didOpen: the diagnostics --check gives, on UTF-16 ranges ---------------------------------
    open_doc(s, zpath, ZONE)
    diags = s.diagnostics(zuri)
    # line 5 (index 4): U+1D54F is two UTF-16 units, "münchen" 7, " A " 3: the address at 12,
    # 11 units long: 23. Line 6 (index 5): "straße", 6 units from 0.
    check(lsp_messages(diags) == cli_messages(zpath, ZONE), "didOpen: not --check's messages",
          lsp_messages(diags), cli_messages(zpath, ZONE))
    by_code = {x["code"]: x for x in diags}
    check(by_code.get("read", {}).get("range") == rng(4, 12, 23) and
          by_code["read"]["severity"] == 1 and by_code["read"]["source"] == "zonepuny",
          "the address's UTF-16 range", by_code.get("read"))
    check(by_code.get("idna-divergence", {}).get("range") == rng(5, 0, 6) and
          by_code["idna-divergence"]["severity"] == 2, "straße's UTF-16 range",
          by_code.get("idna-divergence"))
    # (the origin came from the name: no "needs an origin")
    check(not any("origin" in x["message"] for x in diags), "no origin from the file's name", diags)

    # -- hover ------------------------------------------------------------------------------------
    def hover(line, ch, who=None):
        r = (who or s).request("textDocument/hover", {"textDocument": {"uri": zuri},
                                                      "position": {"line": line, "character": ch}})
        res = r.get("result")
        return res["contents"]["value"] if res else res

    h = hover(5, 3)   # in "straße"
    check(h and "`xn--strae-oqa`" in h and "`strasse`" in h and "U+00DF" in h,
          "hover on straße: both standards and why they differ", h)
    h = hover(6, 5)   # in "xn--mnchen-3ya"
    check(h and "m\u00fcnchen" in h, "hover on an ACE label: its Unicode form", h)
    h = hover(0, 6)   # "1h" after $TTL
    check(h and "3600" in h and "1 hour" in h, "hover on a TTL: its seconds", h)
    h = hover(6, 16)  # "AAAA"
    check(h and "28" in h and "RFC 3596" in h, "hover on a type: its code and RFC", h)
    check(hover(6, 40) is None, "hover in a comment: nothing")
    check(hover(3, 0) is None, "hover on a plain ASCII name: nothing")

    # -- didChange, whole text: the address fixed -------------------------------------------------
    fixed = ZONE.replace("192.0.2.300", "192.0.2.30")
    s.notify("textDocument/didChange", {"textDocument": {"uri": zuri, "version": 2},
                                        "contentChanges": [{"text": fixed}]})
    diags = s.diagnostics(zuri)
    check([x["code"] for x in diags] == ["idna-divergence"], "didChange: one warning left", diags)
    # -- didChange, a range: "straße" (line 5, units 0-6) becomes "strasse" -----------------------
    s.notify("textDocument/didChange", {"textDocument": {"uri": zuri, "version": 3},
                                        "contentChanges": [{"range": rng(5, 0, 6),
                                                            "text": "strasse"}]})
    check(s.diagnostics(zuri) == [], "didChange with a range: clean")
    check(hover(5, 3) is None, "the range was applied (an ASCII name now)")

    # -- the unhappy paths, on the same server ----------------------------------------------------
    s.raw(b"Content-Length: 5\r\n\r\n{oops")
    m = s.read()
    check(m.get("id") is None and m.get("error", {}).get("code") == -32700, "not JSON: -32700", m)
    s.raw(b"Content-Type: x\r\n\r\n")
    m = s.read()
    check(m.get("error", {}).get("code") == -32700, "no Content-Length: -32700", m)
    s.send([1, 2])
    m = s.read()
    check(m.get("error", {}).get("code") == -32600, "not an object: -32600", m)
    s.send({"jsonrpc": "2.0", "id": {"x": 1}, "method": "shutdown"})
    m = s.read()
    check(m.get("error", {}).get("code") == -32600, "an object as id: -32600", m)
    r = s.request("textDocument/definition", {})
    check(r.get("error", {}).get("code") == -32601, "unknown method: -32601", r)
    r = s.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.zone"},
                                         "position": {"line": 0, "character": 0}})
    check(r.get("error", {}).get("code") == -32602, "hover on no document: -32602", r)
    r = s.request("textDocument/hover", {"textDocument": {"uri": zuri}, "position": "x"})
    check(r.get("error", {}).get("code") == -32602, "hover without a position: -32602", r)
    r = s.request("initialize", {"capabilities": {}})
    check(r.get("error", {}).get("code") == -32600, "initialize twice: -32600", r)
    s.notify("textDocument/didChange", {"textDocument": {"uri": "file:///never.zone"},
                                        "contentChanges": [{"text": ""}]})
    m = s.note("window/logMessage")
    check(m["params"]["type"] == 1 and "didChange" in m["params"]["message"],
          "didChange of a document never opened: logged", m)
    s.notify("textDocument/didChange", {"textDocument": {"uri": zuri},
                                        "contentChanges": [{"range": rng(90, 0, 1), "text": "x"},
                                                           {"text": 7}]})
    m = s.note("window/logMessage")
    check("didChange" in m["params"]["message"], "a change without text: logged", m)
    # (the stream is still followed: a request after all that is answered)
    check(hover(0, 6) is not None, "the server still answers after the malformed messages")
    r = s.request("shutdown")
    check("result" in r and r["result"] is None, "shutdown: null", r)
    r = s.request("textDocument/hover", {"textDocument": {"uri": zuri},
                                         "position": {"line": 0, "character": 6}})
    check(r.get("error", {}).get("code") == -32600, "a request after shutdown: -32600", r)
    s.notify("exit", {})
    rc, err = s.end()
    check(rc == 0, "exit after shutdown: status 0", rc, err)

    # -- before initialize; exit without shutdown; the input ending -------------------------------
    s = Server()
    r = s.request("textDocument/hover", {})
    check(r.get("error", {}).get("code") == -32002, "before initialize: -32002", r)
    s.notify("exit", {})
    rc, err = s.end()
    check(rc == 1, "exit without shutdown: status 1", rc, err)
    s, r = start()
    rc, err = s.end()
    check(rc == 1, "the input ended without exit: status 1", rc, err)

    # -- utf-8 offered: byte ranges -----------------------------------------------------------------
    s, r = start(utf8=True)
    check(r["result"]["capabilities"].get("positionEncoding") == "utf-8", "utf-8 negotiated", r)
    open_doc(s, zpath, ZONE)
    by_code = {x["code"]: x for x in s.diagnostics(zuri)}
    # U+1D54F is 4 bytes, "münchen" 8, " A " 3: 15; the address 11 bytes: 26. "straße" 7 bytes.
    check(by_code.get("read", {}).get("range") == rng(4, 15, 26), "the address's byte range",
          by_code.get("read"))
    check(by_code.get("idna-divergence", {}).get("range") == rng(5, 0, 7), "straße's byte range",
          by_code.get("idna-divergence"))
    h = hover(5, 6, s)   # byte 6: inside "ß"
    check(h and "xn--strae-oqa" in h, "hover by byte position", h)
    s.request("shutdown")
    s.notify("exit", {})
    s.end()

    # -- options from the command line: -z, -W ------------------------------------------------------
    s, r = start("-z", "example.org", "-W", "no-idna-divergence")
    other = os.path.join(d, "noname.txt")
    open_doc(s, other, ZONE)
    diags = s.diagnostics(uri(other))
    check([x["code"] for x in diags] == ["read"] and
          lsp_messages(diags) == cli_messages(other, ZONE, "-z", "example.org", "-W",
                                              "no-idna-divergence"),
          "-z and -W given to --lsp apply", diags)
    s.request("shutdown")
    s.notify("exit", {})
    s.end()

    # -- $INCLUDE: diagnostics on the included file's URI; an open piece read as edited -----------
    tree = os.path.join(d, "tree")
    os.mkdir(tree)
    main = os.path.join(tree, "example.net.zone")
    part = os.path.join(tree, "hosts.inc")
    main_text = ("$TTL 300\n@ SOA ns hostmaster 1 7200 900 1209600 300\n@ NS ns\n"
                 "ns A 192.0.2.1\n$INCLUDE hosts.inc\n")
    with open(main, "w") as f:
        f.write(main_text)
    with open(part, "w") as f:
        f.write("www A 192.0.2.2\nbad A 192.0.2.999\n")
    s, r = start(root=d)
    open_doc(s, main, main_text)
    check(s.diagnostics(uri(main)) == [], "the zone itself: clean")
    pd = s.diagnostics(uri(part))
    # hosts.inc line 2 (index 1): "bad A " 6 units, the address 11: 6-17
    check(len(pd) == 1 and pd[0]["range"] == rng(1, 6, 17) and pd[0]["code"] == "read",
          "the included file's error, on its own URI", pd)
    # the piece opened, edited and unsaved: the zone is checked through it, with its text
    open_doc(s, part, "www A 192.0.2.2\nbad A 192.0.2.99\n")
    check(s.diagnostics(uri(part)) == [], "the open piece, as edited: clean (not checked alone,"
          " which would want an SOA)")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(part), "version": 2},
                                        "contentChanges": [{"text": "www CNAME x\nwww A 192.0.2.2\n"}]})
    pd = s.diagnostics(uri(part))
    check("cname-and-other-data" in [x["code"] for x in pd] and
          all(x["range"]["start"]["line"] in (0, 1) for x in pd),
          "a whole-zone check's message in the piece", pd)
    s.notify("textDocument/didClose", {"textDocument": {"uri": uri(part)}})
    pd = s.diagnostics(uri(part))
    check(pd == [], "closed: its diagnostics emptied", pd)
    # (the zone is checked again with the file on disk)
    pd = s.diagnostics(uri(part))
    check(len(pd) == 1 and pd[0]["range"] == rng(1, 6, 17), "then the file on disk again", pd)
    s.request("shutdown")
    s.notify("exit", {})
    s.end()

    # -- memory: held for the open documents only --------------------------------------------------
    s, r = start()
    big = ZONE + "".join("h%d A 192.0.2.1\n" % i for i in range(20000))   # some 340 KB
    for i in range(300):
        p = os.path.join(d, "z%d.zone" % i)
        open_doc(s, p, big)
        s.diagnostics(uri(p))
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri(p)}})
        s.diagnostics(uri(p))
    with open("/proc/%d/status" % s.p.pid) as f:
        hwm = [int(x.split()[1]) for x in f if x.startswith("VmHWM:")][0]
    s.request("shutdown")
    s.notify("exit", {})
    s.end()
    # 300 documents of 340 KB held would be 100 MB; one at a time, a few MB (ASan: its shadow)
    limit = 400 if RUN or "asan" in ZP else 60
    check(hwm < limit * 1024, "peak RSS after 300 documents opened and closed: %d KB" % hwm)

t.finish()
