#!/usr/bin/env python3
"""The user's docs stay true: README.md and docs/*.md name no commit hash, issue number or
"until <date>" history; every link and repository path in them resolves to a file of the
repository; every option that `h2dbench COMMAND --help` prints is documented; the README stays a
page a user reads in five minutes (at most 200 lines). One PASS or FAIL line a check; exit 1 on
any failure.

Usage: tests/docs_test.py --root SOURCE_DIR --h2dbench PATH/TO/h2dbench
"""
import argparse
import glob
import os
import re
import subprocess
import sys

COMMANDS = ["run", "list", "compare", "summary", "declarations", "topology", "soak", "images"]
README_MAX_LINES = 200
# Top-level folders a path in the docs may start with: what a user can open in the repository.
REPO_TOPS = ("harness/", "benchmarks/", "kernels/", "sim/", "tests/", "plots/", "results/",
             "scripts/", "docs/", "cmake/", ".ci/")

HASH = re.compile(r"(?<![\w./-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w/-])")
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+\b")
HISTORY = re.compile(r"\b(?:[Uu]ntil|[Bb]efore) \d{4}-\d{2}-\d{2}\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")


def user_docs(root):
    return [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))


def strip_fenced(text):
    """The text without its ``` blocks' markers (their contents stay: commands are paths too)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith("```"))


def history_problems(root):
    problems = []
    for path in user_docs(root):
        rel = os.path.relpath(path, root)
        for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
            for pattern, what in ((HASH, "a commit hash"), (ISSUE, "an issue number"),
                                  (HISTORY, "dated history")):
                for match in pattern.finditer(line):
                    problems.append(f"{rel}:{number}: {what} '{match.group(0)}'")
    return problems


def path_exists(root, base_dir, target):
    """A link or path resolves: a file or folder, or (for a path without its ending, such as
    harness/topology/link_model) a file of that stem."""
    for candidate in (os.path.normpath(os.path.join(base_dir, target)),
                      os.path.normpath(os.path.join(root, target))):
        if os.path.exists(candidate) or glob.glob(candidate + ".*"):
            return candidate.startswith(os.path.normpath(root) + os.sep)
    return False


def path_problems(root):
    problems = []
    for path in user_docs(root):
        rel = os.path.relpath(path, root)
        base_dir = os.path.dirname(path)
        text = strip_fenced(open(path, encoding="utf-8").read())
        for number, line in enumerate(text.split("\n"), 1):
            if "../shared" in line:
                problems.append(f"{rel}:{number}: '../shared' is outside the repository")
            for match in LINK.finditer(line):
                target = match.group(1).split("#")[0]
                if not target or re.match(r"^[a-z]+:", target):
                    continue  # an anchor on the same page, or a web address
                if not path_exists(root, base_dir, target):
                    problems.append(f"{rel}:{number}: link '{match.group(1)}' resolves to nothing")
            for match in CODE.finditer(line):
                for word in match.group(1).split():
                    word = word.rstrip(".,;:)").lstrip("(")
                    if not word.startswith(REPO_TOPS) or re.search(r"[<>*$?{}|\[\]]", word):
                        continue  # not a repository path, or a pattern (results/<run>/, *.sh)
                    if "=" in word:
                        continue  # a case name such as results/... is not; key=value words are names
                    if not path_exists(root, root, word.rstrip("/")):
                        problems.append(f"{rel}:{number}: path '{word}' is not in the repository")
    return problems


def option_problems(root, h2dbench):
    docs = "\n".join(open(path, encoding="utf-8").read() for path in user_docs(root))
    problems = []
    for command in COMMANDS:
        result = subprocess.run([h2dbench, command, "--help"], capture_output=True, text=True,
                                timeout=60)
        if result.returncode != 0:
            problems.append(f"h2dbench {command} --help exited {result.returncode}")
            continue
        for option in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9_-]*", result.stdout))):
            named = re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", docs)
            documented = named or (option.startswith("--benchmark_") and "--benchmark_" in docs)
            if not documented:
                problems.append(f"h2dbench {command} --help prints {option}, which no doc names")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--h2dbench", required=True)
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    readme_lines = len(open(os.path.join(root, "README.md"), encoding="utf-8").read().split("\n"))
    checks = [
        ("readme_is_short", [] if readme_lines <= README_MAX_LINES + 1 else
         [f"README.md has {readme_lines - 1} lines, more than {README_MAX_LINES}"]),
        ("no_history_in_user_docs", history_problems(root)),
        ("every_path_resolves", path_problems(root)),
        ("every_option_documented", option_problems(root, args.h2dbench)),
    ]
    failures = 0
    for name, problems in checks:
        if problems:
            failures += 1
            print(f"FAIL {name}:")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"PASS {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
