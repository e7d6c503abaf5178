"""``sitegen serve``: the writer's loop. Build, serve the site on the loopback, rebuild on each
change of what a build reads (incrementally; the whole site when the config changes), reload
the open page when the site changed (content/reference/cli.md#sitegen-serve).

One module per job: ``http`` (the server and its handler), ``watch`` (which changes start a
build), ``schedule`` (the rebuild scheduler and what it prints), ``reload`` (the live-reload
script, the build status and the page as served).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import click

from sitegen.config import Config
from sitegen.serve import watch as watching
from sitegen.serve.http import _url_host, is_loopback, open_server
from sitegen.serve.schedule import Builder


def serve(
    config: Config,
    port: int = 8000,
    quiet: bool = False,
    load_config: Callable[[], Config] | None = None,
    config_file: Path | None = None,
    host: str = "127.0.0.1",
) -> None:
    """Build, then serve and rebuild on change until Ctrl-C. ``load_config`` reads the
    configuration again before each build, so an edited config takes effect."""
    builder = Builder(load_config or (lambda: config), config, quiet)
    server = open_server(port, builder, host)
    if not is_loopback(host):
        click.echo(
            f"sitegen: warning: serving on {host}, not the loopback: anyone who can reach "
            "this machine can read the site",
            err=True,
        )
    stop = threading.Event()
    # Watching starts before the first build, so an edit saved while it runs is not lost.
    threading.Thread(target=watching.watch, args=(builder, config_file, stop), daemon=True).start()
    builder.rebuild(full=False)
    click.echo(
        f"sitegen: serving {config.out_dir} at http://{_url_host(host)}:{port}/ (Ctrl-C stops)",
        err=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.stopping.set()
        server.server_close()
