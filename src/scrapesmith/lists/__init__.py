"""lists (BardeenAgent): extract every item of a list on a website into a table, as a replayable program.

Recording finds the repeating records on a page (algorithms propose candidate lists and fields; a model,
when there is one, chooses), learns generalisable CSS selectors, the pagination and any detail-page pass,
and saves them as a :class:`ListProgram`; replay runs the program on the live site with no model::

    recording, result = extract_list(http_runtimes(fetcher), url, "all open jobs", ["Job Title", "Job URL"])
    rows = replay_program(http_runtimes(fetcher), recording.program).rows
"""

from scrapesmith.lists.record import Recording
from scrapesmith.lists.replay import ReplayResult
from scrapesmith.lists.service import (
           RuntimeFactory,
           extract_list,
           http_runtimes,
           record_program,
           replay_program,
)
from scrapesmith.lists.views import ListProgram, ProgramError

__all__ = ["ListProgram", "ProgramError", "Recording", "ReplayResult", "RuntimeFactory", "extract_list",
           "http_runtimes", "record_program", "replay_program"]
