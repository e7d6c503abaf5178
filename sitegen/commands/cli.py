"""The command line (content/reference/cli.md): the group ``main`` (the console script's entry
point), its commands and its exit codes: 0 success, 1 check failures (or --strict warnings),
2 usage or configuration errors, each one clear line.

Each command, its options and its body are a module of its own beside this one (``check.py``
for ``sitegen check``); the options every project command shares are ``options.py``. A command
imports the pipeline only when it runs, so that ``sitegen --help`` stays quick.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from sitegen import __version__
from sitegen.commands.backlinks import backlinks
from sitegen.commands.build import build
from sitegen.commands.check import check
from sitegen.commands.cycles import cycles
from sitegen.commands.explain import explain
from sitegen.commands.explore import explore
from sitegen.commands.export import export
from sitegen.commands.graph import graph_parse
from sitegen.commands.impact import impact
from sitegen.commands.serve import serve
from sitegen.config import ConfigError


class _Group(click.Group):
    """Usage errors and configuration errors both exit 2 with one clear line."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its whole first sentence: click would cut it off with "..."."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            sys.exit(1)
        except click.ClickException as exc:
            exc.show()
            sys.exit(2)
        except ConfigError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            sys.exit(130)
        except OSError as exc:  # the disk said no (permissions, a full disk): one sentence
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"error: {where}{exc.strerror or exc}", err=True)
            sys.exit(2)
        except Exception as exc:  # a bug: one line, never a traceback (content/guides/safety.md)
            if os.environ.get("SITEGEN_DEBUG") == "1":
                raise
            click.echo(
                f"error: internal error ({type(exc).__name__}: {exc}); this is a bug in "
                "sitegen, please report it (SITEGEN_DEBUG=1 shows the traceback)",
                err=True,
            )
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sitegen")
def main() -> None:
    """sitegen: one provenance-bearing graph of a repository's docs and code, published as a site."""


@main.group(cls=_Group, short_help="Read graph exports (graph parse FILE).")
def graph() -> None:
    """Read graph exports."""


for command in (build, check, impact, cycles, explain, backlinks, export, serve, explore):
    main.add_command(command)
graph.add_command(graph_parse)


if __name__ == "__main__":
    main()
