# -*- Python -*-
"""LLVM lit configuration for the Kiln lit tree.

The tree is described once, in kiln-lit.toml beside this file, which kiln-lit
reads directly. This file only translates that description for LLVM's lit, so
`lit lit-tests` and `kiln-lit lit-tests` run the same tests the same way.

Tools come from the bin dir: env KILN_BIN_DIR, else <repo>/target/debug.
"""

import os
import re
import sys
import tomllib
import types

import lit.formats
import lit.util

ROOT = os.path.dirname(os.path.abspath(__file__))
LLVM_BIN_DIR = "/usr/lib/llvm-22/bin"


def load_toml(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


settings = load_toml(os.path.join(ROOT, "kiln-lit.toml"))
bin_dir = os.environ.get("KILN_BIN_DIR") or os.path.join(
    os.path.dirname(ROOT), "target", "debug"
)
search_path = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])


def tool_regex(key):
    """The whole-word pattern lit's ToolSubst builds for `key`."""
    introducer, word = re.match(r"(\W*)(.*)", key).groups()
    not_before = "|".join(re.escape(c) for c in ".-^/\\<")
    return r"(?<!(%s))%s\b%s\b(?!(-|\.))" % (
        not_before,
        re.escape(introducer),
        re.escape(word),
    )


def resolve(program):
    """`program`'s path in the bin dir or on PATH, else the bare name."""
    if os.path.isabs(program):
        return program
    return lit.util.which(program, search_path) or program


def substitutions(entries):
    result = []
    for entry in entries:
        if "value" in entry:
            result.append((re.escape(entry["key"]), entry["value"]))
            continue
        program = entry["tool"]
        chosen = os.environ.get(entry.get("choose-by-env", ""), "")
        program = entry.get("choices", {}).get(chosen, program)
        result.append((tool_regex(entry["key"]), resolve(program)))
    return result


def apply_local(config, directory):
    """Applies `directory`'s kiln-lit.local.toml to `config`.

    A lit.local.cfg beside a kiln-lit.local.toml holds just:
        import os, kiln_lit_cfg
        kiln_lit_cfg.apply_local(config, os.path.dirname(__file__))
    """
    local = load_toml(os.path.join(directory, "kiln-lit.local.toml"))
    if "suffixes" in local:
        config.suffixes = local["suffixes"]
    config.excludes = list(config.excludes) + local.get("excludes", [])
    config.substitutions.extend(substitutions(local.get("substitutions", [])))
    if local.get("unsupported", False):
        config.unsupported = True


config.name = settings["name"]
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = settings.get("suffixes", [])
config.excludes = settings.get("excludes", ["Inputs", "Output"])
config.test_source_root = ROOT
config.test_exec_root = ROOT

# lit pickles `config` for its workers, so the helper for lit.local.cfg files
# lives in a module of its own rather than on `config`.
sys.modules["kiln_lit_cfg"] = types.SimpleNamespace(apply_local=apply_local)

config.substitutions.extend(substitutions(settings.get("substitutions", [])))

for feature in settings.get("features", []):
    dirs = [search_path] + feature.get("search-dirs", [])
    if lit.util.which(feature["program"], os.pathsep.join(dirs)):
        config.available_features.add(feature["name"])

for var in settings.get("pass-env", []):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["KILN_BIN_DIR"] = bin_dir

# LLVM lit's internal shell runs `not` as an external program: keep LLVM's
# at the end of PATH (kiln-lit has `not` built in).
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, config.environment["PATH"], LLVM_BIN_DIR]
)
