"""The command-line reference page, from the argparse parsers of ``unosim.cli``: every command and
subcommand with its help exactly as ``unosim COMMAND --help`` prints it."""

from __future__ import annotations

import argparse
import os

PAGE = "reference/cli.md"


def commands(parser: argparse.ArgumentParser, prefix: str = "unosim"):
    """(command line, parser, one-line help) for the parser and every subcommand, depth first."""
    yield prefix, parser, parser.description or ""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                for line, p, text in commands(sub, f"{prefix} {name}"):
                    yield line, p, text if p is not sub else helps.get(name, "")


def page() -> str:
    from unosim.cli.main import build_parser

    os.environ["COLUMNS"] = "100"   # argparse wraps help to the terminal: fix the width of the page
    lines = ["# Command line", "",
             "Generated from the CLI's own parsers (`unosim.cli`): each block is what "
             "`unosim COMMAND --help` prints. `python -m unosim` is the same command.", "",
             "* Errors print one line (`unosim: error: …`) naming the bad value and the valid choices, and "
             "exit with status 2.",
             "* `--set KEY=VALUE` reads VALUE as TOML (`true`, `3`, `0.5`, `[\"plain_wild\", \"swap_hands\"]`) "
             "or the way rule keys print it, so a printed key can be pasted back: "
             "`--set blank_effects=plain_wild,swap_hands`, `--set 'blank_effects=[plain_wild;swap_hands]'`, "
             "`--set mercy_limit=none`.",
             "* `--json` on `variants`, `policies`, `rules` and `study status` prints JSON for scripts "
             "(`unosim study status data/demo --json | jq .games_done`).",
             "* Output piped into a program that stops reading (`unosim replay … | head`) ends quietly (exit "
             "status 141, as for any Unix tool stopped by SIGPIPE).", ""]
    for line, parser, text in commands(build_parser()):
        lines += [f"## `{line}`", ""]
        if text:
            lines += [text, ""]
        lines += ["```text", parser.format_help().rstrip(), "```", ""]
    return "\n".join(lines)
