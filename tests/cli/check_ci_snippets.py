"""check_ci_snippets.py -- the README's CI snippets do what the README says.

The GitHub Actions workflow (the README's yaml block that starts `# .github/workflows/zones.yml`)
and the GitLab CI job (the one that starts `# .gitlab-ci.yml`) are parsed with PyYAML, and the
shell commands of their zonepuny steps are run as the CI services run them (a GitHub `run:` with
`bash -e`, a step after a failed one only when its `if:` says so; GitLab's `script:` lines in one
`bash -e -o pipefail`) in a temporary git repository holding a zones/ tree, with the built
zonepuny first on PATH. The install steps, which need root and the network, are not run: their
commands must be the README's own (`make deps && make`, `make install`).

The tree: zones/example.com.zone, a good zone, and zones/net/db.example.net, whose line 6 has the
address 192.0.2.300 at column 15; then the same tree with the address fixed.
- GitHub: the `--format=github` step exits 1, then 0; each line it prints is a workflow command
  (`::error file=F,line=L,col=C,title=T::message`, properties escaped as the runner wants), one
  of them an error at zones/net/db.example.net line 6 column 15; the SARIF step leaves the file
  upload-sarif uploads, valid JSON, SARIF 2.1.0, with that error as a result (none once fixed).
- GitLab: the job exits 1, then 0; its artifacts exist: the text log with the error at
  zones/net/db.example.net:6:15 and the summary line, and the SARIF log as above.
- As a pull request (GITHUB_BASE_REF, CI_MERGE_REQUEST_TARGET_BRANCH_NAME set to main, the tree
  pushed to an "origin" as main first): zones/example.com.zone gains a record and keeps serial 1:
  the GitHub check step exits 1 with an ::error titled serial-since on that file, the GitLab job
  exits 1 with the serial-since error in its log; with serial 2 both exit 0.
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

t = Tally()
ZP = os.environ.get("ZONEPUNY", os.path.join(REPO_DIR, "build", "zonepuny"))
GITHUB_MARK = "# .github/workflows/zones.yml"
GITLAB_MARK = "# .gitlab-ci.yml"
BAD_FILE, BAD_LINE, BAD_COL = "zones/net/db.example.net", 6, 15

GOOD_ZONE = """$ORIGIN example.com.
$TTL 1h
@        SOA  ns hostmaster 1 2h 30m 2w 5m
         NS   ns
ns       A    192.0.2.53
münchen  A    192.0.2.1
"""
BAD_ZONE = """$ORIGIN example.net.
$TTL 1h
@        SOA  ns hostmaster 1 2h 30m 2w 5m
         NS   ns
ns       A    192.0.2.53
www      A    192.0.2.300
"""


def check(cond, *what):
    if cond:
        t.ok()
    else:
        t.bad(*what, show=True)


try:
    import yaml
except ImportError:
    t.skip("python3-yaml not installed (make deps-test): the CI snippets are not parsed")
    t.finish()
if not os.access(ZP, os.X_OK):
    t.skip("no zonepuny at %s: make" % ZP)
    t.finish()

with open(os.path.join(REPO_DIR, "README.md"), encoding="utf-8") as f:
    readme = f.read()
blocks = re.findall(r"^```yaml\n(.*?)^```", readme, re.S | re.M)
snippets = {}
for b in blocks:
    first = b.split("\n", 1)[0].strip()
    if first in (GITHUB_MARK, GITLAB_MARK):
        check(first not in snippets, "README has two blocks marked", first)
        snippets[first] = b
for mark in (GITHUB_MARK, GITLAB_MARK):
    check(mark in snippets, "README has no yaml block starting with", mark)

# The README's own install commands: the first set-up command begins `make deps && make`, and
# `make install` is what installs.
install_part = readme.split("\n## Install", 1)[-1].split("\n## ", 1)[0]
check("make deps && make && " in install_part and "`make install`" in install_part,
      "README's Install does not give `make deps && make` and `make install`")


def is_install(cmd):
    return bool(re.search(r"\bmake\b|\bgit clone\b|\bapt-get\b", cmd))


def check_install(where, cmd):
    """An install command: apt-get for git and make, a clone, or the README's own make lines."""
    for part in re.split(r"&&|\n|;", cmd):
        part = part.strip().strip("()").strip()
        if not part or part.startswith(("cd ", "git clone ", "apt-get ")):
            continue
        check(part in ("make deps", "make", "make install", "sudo make install"),
              "%s: the install runs `%s`, not one of the README's commands" % (where, part))
    check("make deps && make" in cmd and "make install" in cmd,
          "%s: the install is not the README's `make deps && make` and `make install`" % where, cmd)


def workflow_command(line):
    """(command, {property: value}, message) of a GitHub workflow command, or None."""
    m = re.fullmatch(r"::(error|warning|notice) ([^:]*)::(.*)", line)
    if not m:
        return None
    props = {}
    for kv in m.group(2).split(","):
        k, eq, v = kv.partition("=")
        if not eq or k in props or k not in ("file", "line", "endLine", "col", "endColumn", "title"):
            return None
        if k in ("line", "endLine", "col", "endColumn") and not v.isdigit():
            return None
        props[k] = re.sub(r"%(25|0D|0A|3A|2C)", lambda e: {"25": "%", "0D": "\r", "0A": "\n",
                                                            "3A": ":", "2C": ","}[e.group(1)], v)
    if re.search(r"%(?!25|0D|0A)", m.group(3)):
        return None
    return m.group(1), props, m.group(3)


def check_sarif(where, path, broken):
    try:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
    except (OSError, ValueError) as e:
        t.bad("%s: %s is no JSON: %s" % (where, path, e), show=True)
        return
    check(log.get("version") == "2.1.0", "%s: SARIF version" % where, log.get("version"))
    results = [r for run in log.get("runs", []) for r in run.get("results", [])]
    errors = []
    for r in results:
        for loc in r.get("locations", []):
            pl = loc.get("physicalLocation", {})
            reg = pl.get("region", {})
            errors.append((r.get("level"), pl.get("artifactLocation", {}).get("uri"),
                           reg.get("startLine"), reg.get("startColumn")))
    if broken:
        check(("error", BAD_FILE, BAD_LINE, BAD_COL) in errors,
              "%s: SARIF has no error at %s:%d:%d" % (where, BAD_FILE, BAD_LINE, BAD_COL), errors)
    else:
        check(not [e for e in errors if e[0] == "error"], "%s: SARIF errors in a good tree" % where,
              errors)


tmp = tempfile.mkdtemp()
try:
    repo, bindir = os.path.join(tmp, "repo"), os.path.join(tmp, "bin")
    os.makedirs(os.path.join(repo, "zones", "net"))
    os.makedirs(bindir)
    with open(os.path.join(bindir, "zonepuny"), "w") as f:
        f.write('#!/bin/sh\nexec "$ZONEPUNY_BIN" "$@"\n')
    os.chmod(os.path.join(bindir, "zonepuny"), 0o755)
    env = dict(os.environ, ZONEPUNY_BIN=ZP, PATH=bindir + os.pathsep + os.environ["PATH"],
               HOME=tmp, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C.UTF-8", GITHUB_WORKSPACE=repo,
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", CI="true")
    env.pop("NO_COLOR", None)

    def git(*args):
        subprocess.run(["git", "-C", repo] + list(args), env=env, check=True,
                       stdout=subprocess.DEVNULL)

    def write_tree(broken):
        with open(os.path.join(repo, "zones", "example.com.zone"), "w", encoding="utf-8") as f:
            f.write(GOOD_ZONE)
        with open(os.path.join(repo, BAD_FILE), "w", encoding="utf-8") as f:
            f.write(BAD_ZONE if broken else BAD_ZONE.replace("192.0.2.300", "192.0.2.30"))
        for art in ("zonepuny.sarif", "zonepuny.log"):
            if os.path.exists(os.path.join(repo, art)):
                os.remove(os.path.join(repo, art))
        git("add", "-A")
        git("commit", "-q", "-m", "broken" if broken else "fixed")

    git("init", "-q")
    for broken in (True, False):
        write_tree(broken)
        state = "with an error" if broken else "fixed"

        # -- GitHub Actions ------------------------------------------------------------------
        if GITHUB_MARK in snippets:
            wf = yaml.safe_load(snippets[GITHUB_MARK])
            check(isinstance(wf, dict) and isinstance(wf.get("jobs"), dict) and
                  (True in wf or "on" in wf), "github: not a workflow", wf)
            steps = [s for job in (wf.get("jobs") or {}).values() for s in job.get("steps", [])]
            uses = [s.get("uses", "") for s in steps]
            check(any(u.startswith("actions/checkout@") for u in uses), "github: no checkout")
            failed, ran, sarif_files, gh_status = False, 0, [], None
            for s in steps:
                where = "github (%s) step %r" % (state, s.get("name") or s.get("uses"))
                if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"):
                    cond = str(s.get("if", ""))
                    check(not failed or re.search(r"always\(\)|!\s*cancelled\(\)|failure\(\)", cond),
                          where + ": would not run after the check failed")
                    sarif_files.append((s.get("with") or {}).get("sarif_file"))
                    continue
                if "run" not in s:
                    continue
                cmd = s["run"]
                if is_install(cmd):
                    check_install(where, cmd)
                    continue
                check("zonepuny" in cmd and "${{" not in cmd, where + ": not a zonepuny command", cmd)
                if failed and not re.search(r"always\(\)|!\s*cancelled\(\)|failure\(\)",
                                            str(s.get("if", ""))):
                    continue
                p = subprocess.run(["bash", "-e", "-c", cmd], cwd=repo, env=env,
                                   capture_output=True, text=True)
                ran += 1
                failed = failed or p.returncode != 0
                if "--format=github" in cmd:
                    gh_status = p.returncode
                    cmds = []
                    for line in p.stdout.splitlines():
                        wc = workflow_command(line)
                        check(wc, where + ": not a workflow command: %r" % line)
                        if wc:
                            cmds.append(wc)
                    errors = [(c[1].get("file"), c[1].get("line"), c[1].get("col"))
                              for c in cmds if c[0] == "error" and c[1].get("title")]
                    if broken:
                        check((BAD_FILE, str(BAD_LINE), str(BAD_COL)) in errors,
                              where + ": no ::error at %s line %d col %d" %
                              (BAD_FILE, BAD_LINE, BAD_COL), p.stdout)
                    else:
                        check(not errors, where + ": errors in a good tree", p.stdout)
                else:
                    check(p.returncode == 0, where + ": exit %d" % p.returncode, p.stderr)
            check(ran >= 2, "github (%s): %d zonepuny steps ran" % (state, ran))
            check(gh_status == (1 if broken else 0), "github (%s): the --format=github step "
                  "exits %s, not %d" % (state, gh_status, 1 if broken else 0))
            check(len(sarif_files) == 1 and sarif_files[0], "github: upload-sarif's sarif_file",
                  sarif_files)
            for sf in sarif_files:
                if sf:
                    check_sarif("github (%s)" % state, os.path.join(repo, sf), broken)

        # -- GitLab CI ------------------------------------------------------------------------
        if GITLAB_MARK in snippets:
            ci = yaml.safe_load(snippets[GITLAB_MARK])
            jobs = {k: v for k, v in (ci or {}).items() if isinstance(v, dict) and "script" in v}
            check(len(jobs) == 1, "gitlab: one job with a script", ci)
            for name, job in jobs.items():
                where = "gitlab (%s) job %s" % (state, name)
                check(job.get("image"), where + ": no image")
                before = job.get("before_script", [])
                check(before and all(is_install(c) for c in before),
                      where + ": before_script is not the install", before)
                check_install(where, "\n".join(before))
                script = job["script"]
                check(all(isinstance(c, str) and "${{" not in c for c in script),
                      where + ": script lines", script)
                p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", "\n".join(script)],
                                   cwd=repo, env=env, capture_output=True, text=True)
                check(p.returncode == (1 if broken else 0), where + ": exit %d, not %d" %
                      (p.returncode, 1 if broken else 0), p.stdout, p.stderr)
                arts = job.get("artifacts", {})
                check(arts.get("when") == "always", where + ": artifacts not kept on failure")
                paths = arts.get("paths", [])
                for a in paths:
                    check(os.path.isfile(os.path.join(repo, a)), where + ": no artifact " + a)
                logs = [a for a in paths if a.endswith(".log")]
                sarifs = [a for a in paths if a.endswith(".sarif")]
                check(len(logs) == 1 and len(sarifs) == 1, where + ": a log and a SARIF", paths)
                for a in logs:
                    try:
                        with open(os.path.join(repo, a), encoding="utf-8") as f:
                            log = f.read()
                    except OSError:
                        continue
                    if broken:
                        check("%s:%d:%d: error:" % (BAD_FILE, BAD_LINE, BAD_COL) in log,
                              where + ": the log has no error at %s:%d:%d" %
                              (BAD_FILE, BAD_LINE, BAD_COL), log)
                    check(re.search(r"^zonepuny: 2 files, \d+ records, %s, 0 warnings$" %
                                    ("1 error" if broken else "0 errors"), log, re.M),
                          where + ": the log's summary line", log)
                for a in sarifs:
                    check_sarif(where, os.path.join(repo, a), broken)

    # -- as a pull request against main: a record added, the serial kept, then raised --------
    subprocess.run(["git", "init", "-q", "--bare", os.path.join(tmp, "origin.git")], env=env,
                   check=True)
    git("remote", "add", "origin", os.path.join(tmp, "origin.git"))
    git("push", "-q", "origin", "HEAD:main")
    git("fetch", "-q", "origin")
    pr_env = dict(env, GITHUB_BASE_REF="main", CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main")
    zone_path = os.path.join(repo, "zones", "example.com.zone")
    for serial, want in (("1", 1), ("2", 0)):
        with open(zone_path, "w", encoding="utf-8") as f:
            f.write(GOOD_ZONE.replace("hostmaster 1 ", "hostmaster %s " % serial) +
                    "new      A    192.0.2.77\n")
        git("commit", "-q", "-am", "serial " + serial)
        state = "pull request, serial %s" % serial
        if GITHUB_MARK in snippets:
            wf = yaml.safe_load(snippets[GITHUB_MARK])
            steps = [s for job in (wf.get("jobs") or {}).values() for s in job.get("steps", [])]
            cmds = [s["run"] for s in steps if "--format=github" in s.get("run", "")]
            check(len(cmds) == 1, "github: one --format=github step", cmds)
            for cmd in cmds[:1]:
                p = subprocess.run(["bash", "-e", "-c", cmd], cwd=repo, env=pr_env,
                                   capture_output=True, text=True)
                check(p.returncode == want, "github (%s): exit %d, not %d" %
                      (state, p.returncode, want), p.stdout, p.stderr)
                hits = [c for c in map(workflow_command, p.stdout.splitlines())
                        if c and c[0] == "error" and "serial-since" in c[1].get("title", "") and
                        c[1].get("file") == "zones/example.com.zone"]
                check(bool(hits) == (want == 1), "github (%s): serial-since error %s" %
                      (state, "missing" if want else "told"), p.stdout)
        if GITLAB_MARK in snippets:
            ci = yaml.safe_load(snippets[GITLAB_MARK])
            for name, job in ((k, v) for k, v in (ci or {}).items()
                              if isinstance(v, dict) and "script" in v):
                p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", "\n".join(job["script"])],
                                   cwd=repo, env=pr_env, capture_output=True, text=True)
                check(p.returncode == want, "gitlab (%s): exit %d, not %d" %
                      (state, p.returncode, want), p.stdout, p.stderr)
                try:
                    with open(os.path.join(repo, "zonepuny.log"), encoding="utf-8") as f:
                        log = f.read()
                except OSError:
                    log = ""
                check(("[-Wserial-since]" in log) == (want == 1), "gitlab (%s): serial-since in "
                      "the log" % state, log)
finally:
    shutil.rmtree(tmp)
t.finish()
