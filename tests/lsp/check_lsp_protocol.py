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
import queue
import subprocess
import sys
import tempfile
import threading

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
        # the server's output is read as it comes, as a client does: a server that writes while
        # the client writes must not fill its pipe and wait on it for ever
        self.chunks = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        while True:
            chunk = os.read(self.p.stdout.fileno(), 65536)
            self.chunks.put(chunk)
            if not chunk:
                return

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _fill(self):
        try:
            chunk = self.chunks.get(timeout=DEADLINE)
        except queue.Empty:
            raise TimeoutError("no message from the server")
        if not chunk:
            self.chunks.put(chunk)
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

    def stop(self):
        """shutdown, then exit: the exit status and the server's standard error."""
        self.request("shutdown")
        self.notify("exit", {})
        return self.end()

    def end(self):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        rc = self.p.wait(DEADLINE)
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
    # a check's diagnostic links to doc/checks.md, which explains it; a read error has no check
    href = by_code.get("idna-divergence", {}).get("codeDescription", {}).get("href", "")
    doc = href[len("file://"):] if href.startswith("file:///") else ""
    check(doc.endswith("/checks.md") and os.path.isfile(doc) and
          "`idna-divergence`" in open(doc, encoding="utf-8").read(), "codeDescription", href)
    check("codeDescription" not in by_code.get("read", {}), "no codeDescription for read")
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
    s.stop()

    # -- options from the command line: -z, -W ------------------------------------------------------
    s, r = start("-z", "example.org", "-W", "no-idna-divergence")
    other = os.path.join(d, "noname.txt")
    open_doc(s, other, ZONE)
    diags = s.diagnostics(uri(other))
    check([x["code"] for x in diags] == ["read"] and
          lsp_messages(diags) == cli_messages(other, ZONE, "-z", "example.org", "-W",
                                              "no-idna-divergence"),
          "-z and -W given to --lsp apply", diags)
    s.stop()

    # -- --since HEAD: a zone changed in the editor without its serial raised; the quick fix
    repo = os.path.join(d, "repo")
    os.mkdir(repo)
    git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.org"]
    gz = os.path.join(repo, "example.com.zone")
    gz_text = ("$TTL 1h\n@ SOA ns hostmaster 7 7200 900 1209600 300\n@ NS ns\n"
               "ns A 192.0.2.1\n")
    with open(gz, "w") as f:
        f.write(gz_text)
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "zone"], check=True)
    s, r = start("--since", "HEAD", root=repo)
    open_doc(s, gz, gz_text)
    check(s.diagnostics(uri(gz)) == [], "--since: the zone as committed, clean")
    changed = gz_text + "www A 192.0.2.80\n"
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(gz), "version": 2},
                                        "contentChanges": [{"text": changed}]})
    ds = s.diagnostics(uri(gz))
    want = cli_messages(gz, changed, "--since", "HEAD")
    check([x["code"] for x in ds] == ["serial-since"] and lsp_messages(ds) == want,
          "--since: the changed text, as --check --since says it", lsp_messages(ds), want)
    acts = s.request("textDocument/codeAction", {
        "textDocument": {"uri": uri(gz)}, "range": ds[0]["range"] if ds else rng(1, 0, 0),
        "context": {"diagnostics": ds}}).get("result", [])
    fix = [a for a in acts if a["title"] == "Raise the SOA serial to 8"]
    # (7 is no date: one more; "@ SOA ns hostmaster " is 20 characters, the serial at 20)
    check(len(fix) == 1 and fix[0]["kind"] == "quickfix" and
          fix[0]["edit"]["changes"][uri(gz)][0]["range"] == rng(1, 20, 21), "raise 7 to 8", acts)
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri(gz), "version": 3},
                                        "contentChanges": [{"text": changed.replace(" 7 ", " 8 ")}]})
    check(s.diagnostics(uri(gz)) == [], "--since: clean once raised")
    s.stop()

    # -- the settings: "origin" as -z; "namedConf": each zone of a file it loads as named loads it
    def start_with(opts):
        s = Server()
        s.request("initialize", {"capabilities": {}, "initializationOptions": opts})
        s.notify("initialized", {})
        return s

    s = start_with({"origin": "example.org", })
    open_doc(s, other, ZONE)
    diags = s.diagnostics(uri(other))
    check(lsp_messages(diags) == cli_messages(other, ZONE, "-z", "example.org"),
          "the origin setting is -z", lsp_messages(diags))
    s.stop()
    cdir = os.path.join(d, "conf")
    os.mkdir(cdir)
    conf = os.path.join(cdir, "named.conf")
    served = os.path.join(cdir, "db.example")   # (a name that gives no origin)
    served_text = ZONE.replace("$TTL 1h\n", "$TTL 1h\n$INCLUDE more.inc\n")
    with open(conf, "w") as f:
        f.write('options { directory "%s"; };\n'
                'zone "example.org" { type primary; file "db.example"; };\n' % cdir)
    with open(served, "w") as f:
        f.write(served_text)
    with open(os.path.join(cdir, "more.inc"), "w") as f:   # (named's directory: found there)
        f.write("more A 192.0.2.9\n")
    s = start_with({"namedConf": conf})
    open_doc(s, served, served_text)
    diags = s.diagnostics(uri(served))
    p = subprocess.run(RUN + [ZP, "--named-conf", conf, "--format=json"], capture_output=True)
    want = [(x["line"], x["severity"], x["check"], x["message"])
            for x in map(json.loads, p.stdout.decode().splitlines())]
    # (named serves the file as it is: its UTF-8 names are errors, not converted)
    check(lsp_messages(diags) == want and any("UTF-8" in m[3] or "non-ASCII" in m[3] for m in want)
          and not any("origin" in m[3] for m in want),
          "a zone of the named.conf: --named-conf's messages", lsp_messages(diags), want)
    s.stop()
    with open(conf, "w") as f:
        f.write('options { directory "%s"; };\nzone "example.org" { type primary; file; };\n' % cdir)
    s = start_with({"namedConf": conf})
    cd = s.diagnostics(uri(conf))
    check(len(cd) >= 1 and cd[0]["range"]["start"]["line"] == 1 and cd[0]["severity"] == 1,
          "a named.conf named wrongly: its error on its own URI", cd)
    s.stop()

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
    s.stop()

    # -- quick fixes and symbols ------------------------------------------------------------------
    s, r = start()
    caps = r["result"]["capabilities"]
    check(caps.get("documentSymbolProvider") is True and
          "quickfix" in caps.get("codeActionProvider", {}).get("codeActionKinds", []),
          "code actions and symbols offered", caps)
    fx = os.path.join(d, "fix.example.zone")
    long_txt = "a" * 300
    fix_text = ("$ORIGIN example.\n$TTL 1\n"
                "@ SOA ns h ( 2026010100 ; serial\n 2 3 4 5 )\n"   # lines 2-3
                "@ NS ns\n"                                          # 4
                "ns A 192.0.2.1\n"                                   # 5
                "www.xn--mnchen-psa A 192.0.2.1\n"                   # 6
                "@ MX 10 mail.example.net\n"                         # 7
                "t TXT \"" + long_txt + "\"\n")                       # 8
    open_doc(s, fx, fix_text)
    diags = s.diagnostics(uri(fx))

    def actions(rg, ds):
        return s.request("textDocument/codeAction", {"textDocument": {"uri": uri(fx)},
                                                     "range": rg, "context": {"diagnostics": ds}})

    def apply(text, edits):
        lines = text.split("\n")
        for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                              e["range"]["start"]["character"]), reverse=True):
            a, b = e["range"]["start"], e["range"]["end"]
            assert a["line"] == b["line"]
            ln = lines[a["line"]]
            lines[a["line"]] = ln[:a["character"]] + e["newText"] + ln[b["character"]:]
        return "\n".join(lines)

    fixed_text = fix_text
    for want, title in (("mx-target", "Add the trailing dot: mail.example.net."),
                        ("read", "Write the label in its canonical ACE form: xn--mnchen-3ya"),
                        ("read", "Split the string into strings of 255 octets")):
        ds = [x for x in diags if x["code"] == want]
        acts = []
        for x in ds:
            acts += [a for a in actions(x["range"], [x]).get("result", []) if a["title"] == title]
        check(len(acts) == 1 and acts[0]["kind"] == "quickfix" and acts[0]["isPreferred"],
              "quick fix %r" % title, acts, ds)
        if acts:
            fixed_text = apply(fixed_text, acts[0]["edit"]["changes"][uri(fx)])
    # the three fixes applied by hand: the text zonepuny then takes (the strings split at 255)
    check("@ MX 10 mail.example.net.\n" in fixed_text and "www.xn--mnchen-3ya A" in fixed_text
          and ('t TXT "%s" "%s"' % ("a" * 255, "a" * 45)) in fixed_text,
          "the fixes as applied", fixed_text[-400:])
    fixed_msgs = cli_messages(fx, fixed_text)
    check([m for m in fixed_msgs if m[2] in ("read", "mx-target")] == [],
          "no error or missing dot left once fixed", fixed_msgs)
    # the SOA serial, on its record (a date-form serial: today's first, or one more)
    acts = actions(rng(3, 1, 1), []).get("result", [])
    raise_ = [a for a in acts if a["title"].startswith("Raise the SOA serial to ")]
    check(len(raise_) == 1 and raise_[0]["kind"] == "refactor.rewrite" and
          raise_[0]["edit"]["changes"][uri(fx)][0]["range"] == rng(2, 13, 23) and
          int(raise_[0]["edit"]["changes"][uri(fx)][0]["newText"]) > 2026010100,
          "raise the serial, on the SOA record", acts)
    check([a for a in actions(rng(5, 0, 0), []).get("result", [])
           if a["title"].startswith("Raise")] == [], "no serial to raise away from the SOA")
    r = s.request("textDocument/codeAction", {"textDocument": {"uri": uri(fx)}})
    check(r.get("error", {}).get("code") == -32602, "codeAction without a range: -32602", r)
    # symbols: each owner as written, over its records, their types as detail
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri(fx)}})
    syms = [(x["name"], x["detail"], x["range"]["start"]["line"], x["range"]["end"]["line"])
            for x in r.get("result", [])]
    check(syms == [("@", "SOA NS", 2, 4), ("ns", "A", 5, 5), ("www.xn--mnchen-psa", "A", 6, 6),
                   ("@", "MX", 7, 7), ("t", "TXT", 8, 8)], "document symbols", syms)
    s.stop()

    # -- every method's parameters of every wrong shape, and bodies of random bytes: answered or
    # logged, never a crash; the server answers a good request after them all
    import random
    rnd = random.Random(43)
    s, r = start()
    open_doc(s, zpath, ZONE)
    s.diagnostics(zuri)
    good = {"textDocument": {"uri": zuri, "version": 9, "text": ZONE},
            "position": {"line": 5, "character": 2}, "range": rng(0, 0, 1),
            "context": {"diagnostics": []}, "contentChanges": [{"text": ZONE}]}
    shapes = [None, 0, -1, 2 ** 40, 1.5, "", "x", [], [1], {}, {"uri": 5}, {"line": -3},
              {"uri": zuri}, {"text": None}, "file:///%00", "file:///%zz"]
    methods = ["textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
               "textDocument/didSave", "textDocument/hover", "textDocument/codeAction",
               "textDocument/documentSymbol", "$/cancelRequest", "workspace/unknown"]

    def mutate(v, depth=0):
        if depth > 3 or rnd.random() < 0.3:
            return rnd.choice(shapes)
        if isinstance(v, dict):
            return {k: mutate(x, depth + 1) if rnd.random() < 0.5 else x for k, x in v.items()}
        if isinstance(v, list):
            return [mutate(x, depth + 1) for x in v]
        return rnd.choice(shapes)

    sent = 0
    for i in range(1500):
        m = rnd.choice(methods)
        msg = {"jsonrpc": "2.0", "method": m, "params": mutate(good)}
        if rnd.random() < 0.5:
            msg["id"] = 1000 + i
        if m == "textDocument/didClose" and rnd.random() < 0.9:
            continue   # (keep the document open, mostly: the requests then reach it)
        s.send(msg)
        sent += 1
        if i % 7 == 0:
            body = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 40)))
            s.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    open_doc(s, zpath, ZONE)
    check(hover(0, 6, s) is not None and s.p.poll() is None,
          "alive and answering after %d malformed messages" % sent)
    s.request("shutdown")
    s.notify("exit", {})
    rc, err = s.end()
    check(rc == 0, "and exits cleanly", rc, err[-400:])

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
    s.stop()
    # 300 documents of 340 KB held would be 100 MB; one at a time, a few MB (ASan: its shadow)
    limit = 400 if RUN or "asan" in ZP else 60
    check(hwm < limit * 1024, "peak RSS after 300 documents opened and closed: %d KB" % hwm)

t.finish()
