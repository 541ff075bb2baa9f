"""check_formats.py -- --format, --color, -q and --silent.

zones/formats/main.zone draws every kind of diagnostic: an RDATA error, a check's warning, an
error inside an included file (its include chain), an unknown type, and an error about the zone
as a whole. Its JSON Lines are held to a golden file whose every number was counted by hand in
the zone's text (see the comments there); the other formats are held to that golden file and to
the GCC text, parsed back independently:
- JSON: each line parses (RFC 8259), schema version 1, the fields the golden file has;
- SARIF: the log validates against the SARIF 2.1.0 schema (tests/data/sarif-2.1.0-rtm.5.json,
  the OASIS schema as Microsoft's jest-sarif ships it; validator: python3-jsonschema), and a
  log made invalid on purpose does not (the validator can fail); its rules are the checks that
  --help lists, with their default levels, plus "read" and "run";
- GitHub: the workflow commands parsed back, with the runner's escapes (%25, %0A, %3A, %2C).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lib import REPO_DIR, Tally  # noqa: E402

t = Tally()
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
RUN = os.environ.get("ZONEPUNY_RUN", "").split()
ZONE = "zones/formats/main.zone"


def run(*args, env=None):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.update(env or {})
    p = subprocess.run(RUN + [ZP] + list(args), capture_output=True, cwd=REPO_DIR, env=e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def check(cond, *what):
    if cond:
        t.ok()
    else:
        t.bad(*what)


# -- the golden JSON Lines, counted by hand ----------------------------------------------------
with open(os.path.join(REPO_DIR, "zones/formats/main.json"), encoding="utf-8") as f:
    golden = [json.loads(line) for line in f if line.strip() and not line.startswith("//")]

rc, out, err = run("--check", "--format=json", ZONE)
check(rc == 1, "json: exit status", rc)
try:
    got = [json.loads(line) for line in out.splitlines()]
except ValueError as e:
    got = []
    t.bad("json: a line does not parse:", e)
check(got == golden, "json: not the golden lines:\n" + out)
BYTES = ("byte_column", "byte_end_column")
chars = [{k: v for k, v in d.items() if k not in BYTES} for d in golden]
check(err.endswith("zonepuny: 1 file, 5 records, 4 errors, 1 warning\n"), "json: summary", err)

# -- the GCC text, parsed back: the same diagnostics; --column-unit=byte: the golden bytes ---------
GCC = re.compile(r"^(?:(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)|zonepuny): "
                 r"(?P<sev>error|warning): (?P<msg>.*?)(?: \[-W(?P<check>[a-z0-9-]+)\])?$")


def gcc_parsed(err):
    parsed = []
    for line in err.splitlines():
        m = GCC.match(line)
        if m and not line.startswith("zonepuny: 1 file"):
            parsed.append({"file": m["file"], "line": int(m["line"]) if m["line"] else None,
                           "column": int(m["col"]) if m["col"] else None, "severity": m["sev"],
                           "message": m["msg"], "include_chain": []})
            parsed[-1]["check"] = m["check"] or "read"
        elif line.startswith("  included from ") and parsed:
            f, n = line[len("  included from "):].rsplit(":", 1)
            parsed[-1]["include_chain"].append({"file": f, "line": int(n)})
    return parsed


rc, out, err = run("--check", ZONE)
strip = [{k: v for k, v in d.items() if k not in ("version", "end_column") + BYTES}
         for d in golden]
check(gcc_parsed(err) == strip, "gcc: the text says other diagnostics than the golden lines:\n" + err)
check(out == "", "gcc --check wrote to stdout")
rc, out, err = run("--check", "--column-unit=byte", ZONE)
in_bytes = [dict(d, column=g["byte_column"]) for d, g in zip(strip, golden)]
check(any(d["column"] != g["column"] for d, g in zip(in_bytes, strip)), "the golden bytes differ")
check(gcc_parsed(err) == in_bytes, "gcc --column-unit=byte: not the golden bytes:\n" + err)
rc, out, err = run("--check", "--column-unit=codepoint", ZONE)
check(gcc_parsed(err) == strip, "gcc --column-unit=codepoint: not the golden lines:\n" + err)
rc, out, err = run("--check", "--column-unit=byte", "--format=sarif", ZONE)
check(rc == 2 and "SARIF" in err and out == "", "--column-unit=byte with SARIF", rc, err)
rc, out, err = run("--check", "--column-unit=bytes", ZONE)
check(rc == 2 and "--column-unit takes codepoint or byte" in err, "--column-unit=bytes", rc, err)

# -- SARIF ---------------------------------------------------------------------------------------
rc, out, err = run("--check", "--format=sarif", ZONE)
check(rc == 1, "sarif: exit status", rc)
try:
    import jsonschema
    with open(os.path.join(REPO_DIR, "tests/data/sarif-2.1.0-rtm.5.json"), encoding="utf-8") as f:
        schema = json.load(f)
    log = json.loads(out)
    jsonschema.validate(log, schema)
    t.ok()
    bad_log = json.loads(out)
    bad_log["runs"][0]["results"][0]["level"] = "fatal"
    try:
        jsonschema.validate(bad_log, schema)
        t.bad("sarif: the validator took a result of level 'fatal'")
    except jsonschema.ValidationError:
        t.ok()
    run0 = log["runs"][0]
    results = []
    for r in run0["results"]:
        loc = r.get("locations", [{}])[0].get("physicalLocation", {})
        reg = loc.get("region", {})
        chain = [{"file": x["physicalLocation"]["artifactLocation"]["uri"],
                  "line": x["physicalLocation"]["region"]["startLine"]}
                 for x in r.get("relatedLocations", [])]
        results.append({"version": 1, "file": loc.get("artifactLocation", {}).get("uri"),
                        "line": reg.get("startLine"), "column": reg.get("startColumn"),
                        "end_column": reg.get("endColumn"), "severity": r["level"],
                        "check": r["ruleId"], "message": r["message"]["text"],
                        "include_chain": chain})
    # (URIs percent-encode what is not unreserved: the golden file names are plain)
    check(results == chars, "sarif: results differ from the golden lines", results)
    rc, helptext, _ = run("--help")
    listed = re.findall(r"^  ([a-z0-9-]+)\s+(error|warning|off)\s", helptext, re.M)
    # (a check off by default is a rule not enabled, at the level -W NAME gives it)
    rules = [(r["id"], "off" if r["defaultConfiguration"].get("enabled") is False
              else r["defaultConfiguration"]["level"]) for r in run0["tool"]["driver"]["rules"]]
    check(len(listed) > 10 and rules == listed + [("read", "error"), ("run", "error")],
          "sarif: rules are not --help's checks + read, run", rules)
    # every rule carries its full description and help (GitHub code scanning asks for both);
    # a check's are doc/checks.md's row, in src/check/registry_help.c
    for r in run0["tool"]["driver"]["rules"]:
        check(r.get("fullDescription", {}).get("text") and r.get("help", {}).get("text"),
              "sarif: rule %s has no fullDescription or help" % r.get("id"), r)
    by_id = {r["id"]: r for r in run0["tool"]["driver"]["rules"]}
    check("BIND 9.18: refuses" in by_id.get("apex-soa", {}).get("help", {}).get("text", ""),
          "sarif: apex-soa's help is not doc/checks.md's row", by_id.get("apex-soa"))
except ImportError:
    t.skip("python3-jsonschema is not installed (make deps-test)")
except (ValueError, KeyError, IndexError) as e:
    t.bad("sarif: not a SARIF log as expected:", repr(e), out[:400])
except Exception as e:  # jsonschema.ValidationError, without naming the module when absent
    t.bad("sarif: invalid against the schema:", str(e)[:600])

# -- GitHub workflow commands ---------------------------------------------------------------------
CMD = re.compile(r"^::(error|warning) (.*?)::(.*)$")


def unescape(s):
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m[1], 16)), s)


def github_parsed(out):
    cmds = []
    for line in out.splitlines():
        m = CMD.match(line)
        if not m:
            t.bad("github: not a workflow command:", line)
            continue
        props = dict(p.split("=", 1) for p in m[2].split(","))
        props = {k: unescape(v) for k, v in props.items()}
        msg = unescape(m[3])
        chain = []
        while True:
            mm = re.search(r" \(included from ([^()]+):(\d+)\)$", msg)
            if not mm:
                break
            chain.insert(0, {"file": mm[1], "line": int(mm[2])})
            msg = msg[:mm.start()]
        cmds.append({"version": 1, "file": props.get("file"),
                     "line": int(props["line"]) if "line" in props else None,
                     "column": int(props["col"]) if "col" in props else None,
                     "end_column": int(props["endColumn"]) if "endColumn" in props else None,
                     "severity": m[1], "check": props["title"].split(" ", 1)[1], "message": msg,
                     "include_chain": chain})
    return cmds


rc, out, err = run("--check", "--format=github", ZONE)
check(rc == 1, "github: exit status", rc)
check(github_parsed(out) == chars, "github: commands differ from the golden lines:\n" + out)
rc, out, err = run("--check", "--format=github", "--column-unit=byte", ZONE)
check(github_parsed(out) == [dict(d, column=g["byte_column"], end_column=g["byte_end_column"])
                             for d, g in zip(chars, golden)],
      "github --column-unit=byte: not the golden bytes:\n" + out)

# -- escapes: a file name with a quote, a comma, a colon and a byte that is not UTF-8 -------------
with tempfile.TemporaryDirectory() as d:
    name = os.path.join(d.encode(), b'we"i,r:d\xff.zone')
    with open(name, "wb") as f:
        f.write(b"$ORIGIN example.\n$TTL 1\n@ SOA ns h 1 2 3 4 5\n@ NS ns\nns A 192.0.2.1\n"
                b"x A 300.0.0.1\n")   # (the address: column 5, 9 characters)
    p = subprocess.run(RUN + [ZP.encode(), b"--check", b"--format=json", name],
                       capture_output=True)
    try:
        j = json.loads(p.stdout)
        check(j["file"] == d + '/we"i,r:d\ufffd.zone' and j["line"] == 6 and j["column"] == 5
              and j["end_column"] == 14, "json escapes:", j)
    except ValueError:
        t.bad("json: a file name's escapes do not parse:", p.stdout)
    p = subprocess.run(RUN + [ZP.encode(), b"--check", b"--format=github", name],
                       capture_output=True)
    # (',' and ':' percent-encoded as the runner decodes them; the octet that is no UTF-8 as
    # \DDD, as GCC's text writes it)
    check(p.stdout.startswith(b"::error file=" + d.encode() + b'/we"i%2Cr%3Ad\\255.zone,line=6,'),
          "github escapes:", p.stdout)

# -- a file that cannot be read: its name in every format ----------------------------------------
rc, out, _ = run("--check", "--format=json", "zones/formats/no-such.zone")
try:
    j = json.loads(out)
    check(rc == 2 and j["file"] == "zones/formats/no-such.zone" and j["line"] is None
          and j["check"] == "run" and "No such file" in j["message"], "json: unreadable file", j)
except ValueError:
    t.bad("json: unreadable file:", out)

# -- colour, -q, --silent -----------------------------------------------------------------------
rc, _, err = run("--check", "--color=always", ZONE)
check("\33[01;31m\33[Kerror:\33[m\33[K" in err and "\33[01;35m\33[Kwarning" in err,
      "--color=always: no GCC colours", err[:300])
rc, _, err = run("--check", "--color=always", ZONE, env={"NO_COLOR": "1"})
check("\33[" in err, "--color=always is overridden by NO_COLOR (it should win)")
for args in (["--color=never"], ["--color=auto"], []):
    rc, _, err = run("--check", *args, ZONE)
    check("\33[" not in err, "colour on a pipe with", args)
try:
    # a terminal: script(1) gives the command one
    cmd = " ".join(RUN + [ZP, "--check", ZONE])
    for no_color, want in (("", True), ("1", False)):
        e = dict(os.environ, NO_COLOR=no_color)
        p = subprocess.run(["script", "-qec", cmd, "/dev/null"], capture_output=True, cwd=REPO_DIR,
                           env=e)
        check((b"\33[01;31m" in p.stdout) == want, "--color=auto on a terminal, NO_COLOR=" + no_color)
except FileNotFoundError:
    t.skip("script(1) is not installed: --color=auto on a terminal not tried")
rc, out, err = run("--check", "-q", ZONE)
check(rc == 1 and "error:" in err and "warning:" not in err, "-q: errors but no warnings", err)
for args in (["--silent"], ["-qq"], ["-q", "-q"]):
    for fmt in ("gcc", "json", "sarif"):
        rc, out, err = run("--check", "--format=" + fmt, *args, ZONE)
        check(rc == 1 and out == "" and err == "", "silent", args, fmt, out[:200], err[:200])
    rc, out, err = run(*args, ZONE)
    check(rc == 1 and out == "" and err == "", "silent conversion", args)
rc, out, err = run("--format=json", "zones/formats/no-such.zone")
check(rc == 2 and out == "" and '"check":"run"' in err, "json conversion: stderr", err)
rc, _, err = run("--check", "--format=xml", ZONE)
check(rc == 2 and "--format takes gcc, json, sarif or github" in err, "--format=xml", err)
t.finish()
