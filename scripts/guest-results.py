#!/usr/bin/env python3
"""Read the guest's results channel (guest/ktap.sh): KTAP, one document for
each time guest/init started (two after kexec), parsed with the tree's own
kunit_parser, the parser of kunit.py.

The files are read in order as one stream, so that a hibernation's two
boots (the image written by the first, the rest of its run resumed by the
second) make one document.  A test is named by its path from the top:
"/hotplug" (a check), "/kunit_rerun/arm64_cpu_pgd" (a suite that check
ran); a name without the leading "/" matches a test of that name at any
depth, such as a KUnit case.

usage: guest-results.py [--doc N] [--summary | --complete | --list |
                         --passed NAME | --failed NAME] KTAP-FILE...
  --doc N      the Nth document (1 is the first, -1, the default, the last)
  --summary    (the default) print kunit.py's view of the document; fail
               unless every test it plans passed
  --complete   fail unless the document has a result for each test it plans
  --list       print "ok NAME" or "not ok NAME" for each top-level test
  --passed     fail unless NAME is there and passed
  --failed     fail unless NAME is there and failed (a mutant is caught by
               the test it names, not by a guest that died)
"""
import argparse
import itertools
import os
import re
import sys

KSRC = os.environ.get("KSRC") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build", "linux")
sys.path.insert(0, os.path.join(KSRC, "tools", "testing", "kunit"))
import kunit_parser  # noqa: E402
from kunit_parser import TestStatus  # noqa: E402
from kunit_printer import null_printer, stdout  # noqa: E402

DOC_START = re.compile(r"^K?TAP version \d+$")


def documents(paths):
    docs = []
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                if DOC_START.match(line):
                    docs.append([])
                if docs:
                    docs[-1].append(line)
    return docs


def walk(test, path=""):
    for sub in test.subtests:
        name = f"{path}/{sub.name}" if path else sub.name
        yield name, sub
        yield from walk(sub, name)


def find(test, name):
    """(path, test) for each test NAME names"""
    if name.startswith("/"):
        return [(p, t) for p, t in walk(test) if "/" + p == name]
    return [(p, t) for p, t in walk(test) if t.name == name or p == name]


def finished(test):
    """The number of top-level results, and whether that is all there is:
    the plan met, no placeholder for a missing result (kunit_parser's
    nameless test) and no malformed line at any level."""
    got = len([t for t in test.subtests if t.name])
    return got, (test.expected_count is not None and
                 got == test.expected_count and not test.counts.errors)


def why(test, path):
    """The diagnostics a failed test and the failed tests under it left (a
    KUnit case's failed expectations, the end of a check's output), each
    with the path of the test that left it."""
    for line in test.log:
        if line.strip():
            yield f"{path}: {line.strip()}"
    for sub in test.subtests:
        if sub.status not in (TestStatus.SUCCESS, TestStatus.SKIPPED):
            yield from why(sub, f"{path}/{sub.name}")


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("usage: ")[1])
    ap.add_argument("--doc", type=int, default=-1)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--summary", action="store_true")
    mode.add_argument("--complete", action="store_true")
    mode.add_argument("--list", action="store_true")
    mode.add_argument("--passed", metavar="NAME")
    mode.add_argument("--failed", metavar="NAME")
    ap.add_argument("files", nargs="+", metavar="KTAP-FILE")
    args = ap.parse_args()

    if args.doc == 0:
        sys.exit("error: --doc counts from 1 (or from the end, -1)")
    for path in args.files:
        if not os.path.exists(path):
            sys.exit(f"error: no results file {path}: the guest never started, "
                     "or was booted without the channel")
    docs = documents(args.files)
    try:
        doc = docs[args.doc - 1 if args.doc > 0 else args.doc]
    except IndexError:
        sys.exit(f"error: no document {args.doc} in {' '.join(args.files)} "
                 f"({len(docs)} there): the guest never reported")
    quiet = args.complete or args.list or args.passed or args.failed
    test = kunit_parser.parse_run_tests(doc, null_printer if quiet else stdout)

    if args.list:
        for t in test.subtests:
            print(("ok " if t.status == TestStatus.SUCCESS else "not ok ") +
                  (t.name or "<missing>"))
        return 0
    if args.complete:
        got, done = finished(test)
        if not done:
            sys.exit(f"error: {got} results of {test.expected_count} planned, "
                     f"{test.counts.errors} errors: the guest did not finish")
        return 0
    if args.passed or args.failed:
        name = args.passed or args.failed
        found = find(test, name)
        if not found:
            sys.exit(f"error: no result for {name}")
        ok = [t.status == TestStatus.SUCCESS for _, t in found]
        if args.passed and not all(ok):
            # As error: lines, the ones CI shows (common.sh's t), 40 at
            # most, on stderr like the rest (make matrix keeps stdout)
            print(f"error: {name} failed", file=sys.stderr)
            lines = (line for p, t in found
                     if t.status not in (TestStatus.SUCCESS, TestStatus.SKIPPED)
                     for line in why(t, "/" + p))
            for line in itertools.islice(lines, 40):
                print(f"error:   {line}", file=sys.stderr)
            sys.exit(1)
        if args.failed and all(ok):
            sys.exit(f"error: {name} passed")
        return 0
    kunit_parser.print_summary_line(test, stdout)
    if test.status != TestStatus.SUCCESS or not finished(test)[1]:
        sys.exit("error: not every test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
