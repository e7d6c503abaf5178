"""The theme's static files at the site root: the shipped stylesheet (with the code
highlighting appended) and scripts, and every non-template file of ``theme_dir``.

Claimed after sitegen's own outputs and before the content's, so a theme file never
replaces a report and a content file never replaces the stylesheet; never renders a template.
"""

from __future__ import annotations

from collections.abc import Sequence

from sitegen.base.paths import OutPath
from sitegen.site.emitter import SITEGEN, EmitRun, Emitter


class ThemeFiles(Emitter):
    name = "theme files"
    options = ("theme_dir",)

    def claim(self, run: EmitRun) -> list[OutPath]:
        names = run.site.renderer.static_files()
        return [OutPath(n) for n in names if run.writer.claim(OutPath(n), SITEGEN)]

    def emit(self, run: EmitRun, outputs: Sequence[OutPath]) -> None:
        files = run.site.renderer.static_files()
        for out in outputs:
            run.writer.write(out, files[out])
