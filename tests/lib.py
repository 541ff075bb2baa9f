"""lib.py -- the shared harness of the Python script tests (tests/*/check_*.py), as tests/lib.sh
is for the shell ones. A check script puts tests/ on sys.path and imports it:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from lib import Tally  # noqa: E402

    t = Tally()
    t.ok()                 count a pass
    t.bad("what")          count a failure and print "FAIL: what"
    t.skip("why")          count a case not run and print "SKIP: why"
    t.need_pass("what")    count a failure when nothing has passed or failed yet
    t.finish()             print "N passed, N failed, N skipped" and exit: 1 if any failed; 77
                           (the runner's "skipped") if nothing passed or failed and something
                           was skipped; else 0

Tally(shown=30) prints only the first 30 FAIL lines (the rest are counted, and their number is
said at finish); bad(..., show=True) prints regardless. The module-level ok, bad, skip,
need_pass and finish use one shared Tally.
"""
import os
import sys

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(TESTS_DIR)


class Tally:
    def __init__(self, shown=None):
        self.passed = self.failed = self.skipped = 0
        self.shown = shown
        self.hidden = 0

    def ok(self, what=None):
        self.passed += 1

    def bad(self, *what, show=None):
        self.failed += 1
        if show is None:
            show = self.shown is None or self.failed <= self.shown
        if show:
            print("FAIL: " + " ".join(str(w) for w in what))
        else:
            self.hidden += 1

    def skip(self, *why):
        self.skipped += 1
        print("SKIP: " + " ".join(str(w) for w in why))

    def need_pass(self, what):
        if not self.passed and not self.failed:
            self.bad("nothing checked: " + what, show=True)

    def summary(self):
        return "%d passed, %d failed, %d skipped" % (self.passed, self.failed, self.skipped)

    def status(self):
        if self.failed:
            return 1
        if not self.passed and self.skipped:
            return 77
        return 0

    def finish(self):
        if self.hidden:
            print("(%d more failures not shown)" % self.hidden)
        print(self.summary())
        sys.stdout.flush()
        sys.exit(self.status())


_tally = Tally()
ok = _tally.ok
bad = _tally.bad
skip = _tally.skip
need_pass = _tally.need_pass
finish = _tally.finish


def doc_block(page, lang, after):
    """The first ```lang code block of doc/PAGE after the text `after` (a page's snippet run by
    a test as the page writes it)."""
    with open(os.path.join(REPO_DIR, "doc", page), encoding="utf-8") as f:
        text = f.read()
    rest = text[text.index(after):]
    start = rest.index("```" + lang + "\n") + len(lang) + 4
    return rest[start:rest.index("```", start)]
