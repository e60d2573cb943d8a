#!/usr/bin/env python3
"""Runs lit's own test inputs (the `tests/Inputs` suites that Debian ships with
llvm-N-tools under build/utils/lit) under LLVM's lit and under kiln-lit, run by
run, and counts the runs whose verdicts (the `STATUS: name` lines) and exit
status agree.

Each suite's lit.cfg is translated into a kiln-lit.toml (name, suffixes,
literal substitutions, `lit_config.params` substitutions, environment,
features, recursive expansion limit, `standalone_tests`, ShTest's
`preamble_commands`) and each lit.local.cfg into a
kiln-lit.local.toml (suffixes, unsupported); suites whose configuration is
Python beyond that (custom formats, GoogleTest) are left out. The runs are
the ones lit's own tests make (their options and environment), listed in RUNS
below; both runners get `-j1 --order=lexical` so that runs are repeatable.

usage: benches/lit_own_suites.py [-v] [KILN_LIT]
env:   LLVM_LIT     (default /usr/lib/llvm-22/bin/lit)
       LIT_INPUTS   (default /usr/lib/llvm-14/build/utils/lit/tests/Inputs)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

LLVM_LIT = os.environ.get("LLVM_LIT", "/usr/lib/llvm-22/bin/lit")
INPUTS = os.environ.get("LIT_INPUTS", "/usr/lib/llvm-14/build/utils/lit/tests/Inputs")

# (suite path under Inputs, extra arguments, extra environment)
RUNS = [
    ("allow-retries/succeeds-within-limit.py", [], {}),
    ("allow-retries/does-not-succeed-within-limit.py", [], {}),
    ("allow-retries/more-than-one-allow-retries-lines.py", [], {}),
    ("discovery", [], {}),
    ("discovery", ["--filter", "test"], {}),
    ("discovery", ["--filter-out", "test"], {}),
    ("ignore-fail", [], {}),
    ("ignore-fail", ["--ignore-fail"], {}),
    ("lit-opts", ["-s"], {}),
    ("lit-opts", ["-s"], {"LIT_OPTS": "-a"}),
    ("lit-opts", ["-s"], {"LIT_OPTS": "-a -v  -Dvar=foobar"}),
    ("lit-opts", ["-a", "--param", "var=x"], {}),
    ("max-failures", [], {}),
    ("max-failures", ["--max-failures=1"], {}),
    ("max-failures", ["--max-failures=2"], {}),
    ("max-failures", ["--max-failures=0"], {}),
    ("max-time", ["--max-time=5"], {}),
    ("show-result-codes", [], {}),
    ("show-result-codes", ["--show-unsupported"], {}),
    ("show-result-codes", ["--show-pass", "--show-xfail"], {}),
    ("shtest-env", [], {}),
    ("shtest-format", [], {}),
    ("shtest-inject", [], {}),
    ("shtest-keyword-parse-errors", [], {}),
    ("shtest-not", [], {}),
    ("shtest-output-printing", [], {}),
    ("shtest-recursive-substitution/substitutes-within-limit", [], {}),
    ("shtest-recursive-substitution/does-not-substitute-within-limit", [], {}),
    ("shtest-recursive-substitution/does-not-substitute-no-limit", [], {}),
    ("shtest-recursive-substitution/negative-integer", [], {}),
    ("shtest-recursive-substitution/set-to-none", [], {}),
    ("shtest-shell", [], {}),
    ("standalone-tests-with-suffixes", [], {}),
    ("xfail-cl", ["--xfail", "false.txt;false2.txt;top-level-suite :: b :: test.txt",
                  "--xfail-not", "true-xfail.txt;top-level-suite :: a :: test-xfail.txt"], {}),
    ("xfail-cl", [], {"LIT_XFAIL": "false.txt;false2.txt;top-level-suite :: b :: test.txt",
                      "LIT_XFAIL_NOT": "true-xfail.txt;top-level-suite :: a :: test-xfail.txt"}),
    ("xfail-cl/true-xfail.txt", ["--xfail", "true-xfail.txt", "--xfail-not", "true-xfail.txt",
                                 "--xfail", "true-xfail.txt"], {"LIT_XFAIL": "true-xfail.txt"}),
    ("xfail-cl/true-xfail.txt", ["--xfail", "true-xfail.txt"],
     {"LIT_XFAIL_NOT": "true-xfail.txt", "LIT_XFAIL": "true-xfail.txt"}),
]

STRING = r"""(?:'([^']*)'|"([^"]*)")"""


def string(match, group):
    return match.group(group) if match.group(group) is not None else match.group(group + 1)


def toml_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def translate(cfg):
    """kiln-lit.toml text for lit.cfg text `cfg`, or None when it is more than
    kiln-lit.toml says."""
    if "ShTest" not in cfg and "config.test_format" in cfg:
        return None
    out = []
    name = re.search(r"config\.name\s*=\s*" + STRING, cfg)
    if name:
        out.append("name = " + toml_string(string(name, 1)))
    suffixes = re.search(r"config\.suffixes\s*=\s*\[([^\]]*)\]", cfg)
    if suffixes:
        items = [m.group(1) or m.group(2) for m in re.finditer(STRING, suffixes.group(1))]
        out.append("suffixes = [" + ", ".join(toml_string(s) for s in items) + "]")
    if re.search(r"config\.standalone_tests\s*=\s*True", cfg):
        out.append("standalone-tests = true")
    limit = re.search(r"config\.recursiveExpansionLimit\s*=\s*(\S+)", cfg)
    if limit:
        if limit.group(1) != "None":
            out.append("recursive-expansion-limit = " + limit.group(1))
    preamble = re.search(r"preamble_commands\s*=\s*\[([^\]]*)\]", cfg)
    if preamble:
        items = [string(m, 1) for m in re.finditer(STRING, preamble.group(1))]
        out.append("preamble-commands = [" + ", ".join(toml_string(s) for s in items) + "]")
    env = [(string(m, 1), string(m, 3)) for m in re.finditer(
        r"config\.environment\[" + STRING + r"\]\s*=\s*" + STRING, cfg)]
    if env:
        out.append("[environment]")
        out.extend(f"{toml_string(k)} = {toml_string(v)}" for k, v in env)
    features = re.findall(r"available_features\.add\(" + STRING + r"\)", cfg)
    listed = re.search(r"available_features\s*=\s*\[([^\]]*)\]", cfg)
    names = [a or b for a, b in features]
    if listed:
        names += [m.group(1) or m.group(2) for m in re.finditer(STRING, listed.group(1))]
    for feature in names:
        out.append("[[features]]")
        out.append("name = " + toml_string(feature))
    pairs = re.findall(r"\(\s*" + STRING + r"\s*,\s*([^()]*(?:\([^()]*\))?[^()]*?)\s*\)", cfg)
    for key1, key2, value in pairs:
        if "substitutions" not in cfg:
            break
        key = key1 or key2
        param = re.match(r"lit_config\.params\.get\(" + STRING + r"\s*,\s*" + STRING + r"\)", value)
        literal = re.fullmatch(STRING, value)
        out.append("[[substitutions]]")
        out.append("key = " + toml_string(key))
        if param:
            out.append("param = " + toml_string(string(param, 1)))
            out.append("value = " + toml_string(string(param, 3)))
        elif literal:
            out.append("value = " + toml_string(string(literal, 1)))
        elif "sys.executable" in value:
            out.append("value = " + toml_string(sys.executable))
        else:
            return None
    return "\n".join(out) + "\n"


def translate_local(cfg):
    """kiln-lit.local.toml text for lit.local.cfg text `cfg` (suffixes and
    `unsupported` only), or None."""
    out = []
    suffixes = re.search(r"config\.suffixes\s*=\s*\[([^\]]*)\]", cfg)
    if suffixes:
        items = [m.group(1) or m.group(2) for m in re.finditer(STRING, suffixes.group(1))]
        out.append("suffixes = [" + ", ".join(toml_string(s) for s in items) + "]")
    if re.search(r"config\.unsupported\s*=\s*True", cfg):
        out.append("unsupported = true")
    return "\n".join(out) + "\n" if out else None


def prepare(tmp, suite):
    """Copies the suite of `suite` (a path under Inputs) into `tmp`, adds
    kiln-lit.toml files; returns the path to run, or None."""
    top = suite.split("/")[0]
    nested = suite.split("/")
    src_top = os.path.join(INPUTS, top)
    dst_top = os.path.join(tmp, top)
    if not os.path.exists(dst_top):
        shutil.copytree(src_top, dst_top)
        for root, _, files in os.walk(dst_top):
            if "lit.local.cfg" in files:
                with open(os.path.join(root, "lit.local.cfg")) as f:
                    local = translate_local(f.read())
                if local is not None:
                    with open(os.path.join(root, "kiln-lit.local.toml"), "w") as f:
                        f.write(local)
            if "lit.cfg" in files:
                with open(os.path.join(root, "lit.cfg")) as f:
                    toml = translate(f.read())
                if toml is None:
                    continue
                with open(os.path.join(root, "kiln-lit.toml"), "w") as f:
                    f.write(toml)
    path = os.path.join(tmp, *nested)
    return path


VERDICT = re.compile(r"^(PASS|FAIL|XFAIL|XPASS|UNSUPPORTED|UNRESOLVED|TIMEOUT|FLAKYPASS|SKIPPED|EXCLUDED): (.*?)( \(\d+ of \d+\))?$")


def run(argv, env):
    full_env = dict(os.environ)
    for k in ["LIT_OPTS", "LIT_XFAIL", "LIT_XFAIL_NOT", "LIT_FILTER", "LIT_FILTER_OUT"]:
        full_env.pop(k, None)
    full_env.update(env)
    p = subprocess.run(argv, env=full_env, capture_output=True, text=True, timeout=120)
    verdicts = sorted(m.group(1) + ": " + m.group(2) for m in map(VERDICT.match, p.stdout.splitlines()) if m)
    return p.returncode, verdicts, p.stdout + p.stderr


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    kiln = args[0] if args else shutil.which("kiln-lit")
    same = 0
    with tempfile.TemporaryDirectory() as tmp:
        for suite, extra, env in RUNS:
            path = prepare(tmp, suite)
            theirs = run([LLVM_LIT, "-j1", "--order=lexical", *extra, path], env)
            # A fresh copy: the two runners' Output/ and timing files differ.
            mine = run([kiln, "-j1", "--order=lexical", *extra, path], env)
            ok = theirs[:2] == mine[:2]
            same += ok
            label = f"{suite} {' '.join(extra)} {' '.join(f'{k}={v}' for k, v in env.items())}".strip()
            print(f"{'same' if ok else 'DIFF'}: {label}")
            if verbose and not ok:
                print(f"  lit  exit {theirs[0]}: {theirs[1]}\n  kiln exit {mine[0]}: {mine[1]}")
                print("  kiln output:\n    " + mine[2].replace("\n", "\n    "))
    print(f"{same} of {len(RUNS)} runs give lit's verdicts and exit status")


if __name__ == "__main__":
    main()
