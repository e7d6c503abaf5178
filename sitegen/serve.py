"""``sitegen serve``: build, serve the site on localhost, rebuild when the project changes.

Serves only the output folder, only on the loopback interface; never writes outside the
output and the cache (the build does that).
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import click

from sitegen.build import BuildOptions, build
from sitegen.config import Config


def _rebuild(config: Config, quiet: bool) -> None:
    result = build(config, BuildOptions(quiet=True))
    for d in result.diagnostics:
        click.echo(d.format(), err=True)
    if not quiet:
        click.echo(f"sitegen: {result.summary()}", err=True)


def _watch(config: Config, quiet: bool) -> None:
    from watchfiles import watch

    out, cache = config.out_dir.resolve(), config.cache_dir.resolve()

    def relevant(_change: object, path: str) -> bool:
        p = Path(path).resolve()
        return not (p == out or out in p.parents or p == cache or cache in p.parents
                    or p.name.startswith(".") or any(part.startswith(".") for part in p.parts[-3:-1]))

    for _ in watch(config.root, watch_filter=relevant):
        _rebuild(config, quiet)


def serve(config: Config, port: int = 8000, quiet: bool = False) -> None:
    _rebuild(config, quiet)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(config.out_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=_watch, args=(config, quiet), daemon=True).start()
    click.echo(f"sitegen: serving {config.out_dir} at http://127.0.0.1:{port}/ (Ctrl-C stops)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
