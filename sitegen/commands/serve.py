"""``sitegen serve``: the command's options, and the refusals made before the server starts;
the server, the watcher and live reload are sitegen/serve/ (content/reference/cli.md#sitegen-serve).
"""

from __future__ import annotations

import click

from sitegen.commands.options import ProjectOptions, _project_options


@click.command()
@_project_options
@click.option(
    "--port", type=int, default=8000, show_default=True, help="Port to listen on (1-65535)."
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but the loopback is announced with a warning.",
)
def serve(
    project: ProjectOptions,
    port: int,
    host: str,
) -> None:
    """Build, serve the site on localhost and rebuild when files change."""
    from sitegen.serve import serve as run_serve
    from sitegen.state.folder import check_cache_dir
    from sitegen.state.ownership import check_output

    config = project.config()
    # Refused before the server starts: a configuration no build can take is exit 2, not a
    # server that shows the same error after every save.
    check_output(config, writing=True)
    check_cache_dir(config.cache_dir)
    run_serve(
        config,
        port=port,
        quiet=project.quiet,
        config_file=project.config_file,
        host=host,
        load_config=project.config,
    )
