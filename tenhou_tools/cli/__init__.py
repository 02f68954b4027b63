"""The ``tenhou-tools`` command line: wiring and rendering only.

Exit codes (DESIGN.md): 0 clean; 1 findings at or above ``--fail-on`` or an unreadable log;
2 usage or input error; 3 internal error; 130 interrupted.
"""

from __future__ import annotations

import os
import sys
import traceback

import click

from .. import __version__, native

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class _Group(click.Group):
    """Maps Ctrl-C to exit 130 and unexpected exceptions to exit 3 with a one-line message."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            raise click.exceptions.Exit(EXIT_FINDINGS) from None
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            click.echo(f"Internal error: {type(exc).__name__}: {exc}", err=True)
            if os.environ.get("TENHOU_TOOLS_DEBUG"):
                traceback.print_exc()
            else:
                click.echo("Set TENHOU_TOOLS_DEBUG=1 to see the traceback.", err=True)
            raise click.exceptions.Exit(EXIT_INTERNAL) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tenhou-tools",
                      message=f"%(prog)s %(version)s\nbuild: {native.status().line()}")
def cli() -> None:
    """Parse, replay and verify Tenhou (tenhou.net) mahjong logs."""


def _register() -> None:
    from . import parse_cmd, show_cmd, validate_cmd

    cli.add_command(parse_cmd.parse)
    cli.add_command(show_cmd.show)
    cli.add_command(validate_cmd.validate)
    from . import download_cmd; cli.add_command(download_cmd.download)  # noqa: E702
    from . import replay_cmd; cli.add_command(replay_cmd.replay)  # noqa: E702
    from . import convert_cmd; cli.add_command(convert_cmd.convert)  # noqa: E702
    from . import stats_cmd; cli.add_command(stats_cmd.stats)  # noqa: E702


_register()


def main() -> None:
    cli(prog_name="tenhou-tools")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
