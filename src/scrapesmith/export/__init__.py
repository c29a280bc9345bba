"""Export: a forged program as code its user owns (a Scrapy project, a plain script), no scrapesmith needed."""

from scrapesmith.export.service import (
    EXPORT_TARGETS,
    ExportError,
    Politeness,
    export_python,
    export_scrapy,
    load_program,
)

__all__ = ["EXPORT_TARGETS", "ExportError", "Politeness", "export_python", "export_scrapy", "load_program"]
