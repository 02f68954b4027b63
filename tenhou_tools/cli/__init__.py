"""The ``tenhou-tools`` command line: wiring and rendering only.

Exit codes (DESIGN.md): 0 clean; 1 findings at or above ``--fail-on`` or an unreadable log;
2 usage or input error; 3 internal error; 130 interrupted; 141 (``output.EXIT_CLOSED_PIPE``)
stdout's pipe closed by its reader.
"""

from __future__ import annotations

import importlib
import os
import traceback
from typing import NoReturn

import click

from .. import __version__
from .errors import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, fail, library_error  # noqa: F401 - the commands' names

COMMANDS = {
    "parse": "parse_cmd",
    "show": "show_cmd",
    "validate": "validate_cmd",
    "download": "download_cmd",
    "index": "index_cmd",
    "replay": "replay_cmd",
    "convert": "convert_cmd",
    "stats": "stats_cmd",
}
"""Each command and the module (in this package) that defines it, under the same name."""


class _Group(click.Group):
    """Loads a command's module when the command is used (``validate`` does not import the
    HTTP client, ``stats`` its store, ...); maps Ctrl-C to exit 130, output that cannot be
    written (a full disk, a closed stdout) to exit 1, a pipe closed by its reader (``| head``) to
    a quiet exit 141, the library's errors to their exit codes (``errors``) and unexpected
    exceptions to exit 3, each with a one-line message."""

    def main(self, *args, **kwargs):
        from . import output

        with output.guarded_stdout():  # --help and --version write before any command runs
            return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            module = importlib.import_module(f"{__name__}.{COMMANDS[name]}")
            self.add_command(getattr(module, name))
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context):
        from . import output  # here: the group itself must stay cheap to import

        with output.guarded_stdout():
            try:
                result = super().invoke(ctx)
                output.flush_stdout()  # a full disk shows now, as one line (a closed pipe: quietly)
                return result
            except click.exceptions.Exit:
                output.flush_stdout()
                raise
            except (click.ClickException, click.Abort):
                raise
            except KeyboardInterrupt:
                click.echo("Interrupted.", err=True)
                raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
            except OSError as exc:
                failed = output.output_os_error(exc)
                if failed is None:
                    self._internal_error(exc)
                raise failed from None
            except Exception as exc:  # noqa: BLE001 - the last line of defence
                if library_error(exc):  # the library's own errors: one line and their exit code
                    fail(exc)
                self._internal_error(exc)

    @staticmethod
    def _internal_error(exc: Exception) -> NoReturn:
        """One line (the traceback with TENHOU_TOOLS_DEBUG=1) and exit code 3."""
        click.echo(f"Internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("TENHOU_TOOLS_DEBUG"):
            traceback.print_exception(exc)
        else:
            click.echo("Set TENHOU_TOOLS_DEBUG=1 to see the traceback.", err=True)
        raise click.exceptions.Exit(EXIT_INTERNAL) from None


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the version and which build runs (looked at only here, never at import)."""
    if not value or ctx.resilient_parsing:
        return
    from .._build import status

    click.echo(f"tenhou-tools {__version__}\nbuild: {status()}")
    ctx.exit()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and the build (compiled or plain Python), and exit.")
def cli() -> None:
    """Parse, replay and verify Tenhou (tenhou.net) mahjong logs."""


def main() -> None:
    cli(prog_name="tenhou-tools")


if __name__ == "__main__":  # pragma: no cover
    main()
