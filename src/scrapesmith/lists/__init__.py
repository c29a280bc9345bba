"""lists (BardeenAgent): extract every item of a list on a website into a table, as a replayable program.

Recording finds the repeating records on a page (algorithms propose candidate lists and fields; a model,
when there is one, chooses), learns generalisable CSS selectors, the pagination and any detail-page pass,
and saves them as a :class:`ListProgram`; replay runs the program on the live site with no model::

    recording, result = extract_list(http_runtimes(fetcher), url, "all open jobs", ["Job Title", "Job URL"])
    rows = replay_program(http_runtimes(fetcher), recording.program).rows
"""

from scrapesmith.lists.choose import choose_data_lists
from scrapesmith.lists.detail import MULTI_SEPARATOR
from scrapesmith.lists.dsl import ScrapeFields, describe
from scrapesmith.lists.heal import ListHeal, heal_list_program
from scrapesmith.lists.pages import ListPages, NotScalable
from scrapesmith.lists.profile import check_dataset, check_replay
from scrapesmith.lists.record import NoListFound, Recording, RecordingError, parse_columns, record_heuristic
from scrapesmith.lists.replay import ReplayResult, empty_column_warnings, replay
from scrapesmith.lists.runtime import HttpRuntime, NeedsBrowser
from scrapesmith.lists.service import (
           RUNTIMES,
           RuntimeFactory,
           extract_from_sources,
           extract_list,
           http_runtimes,
           list_sources,
           make_runtimes,
           record_program,
           replay_program,
           save_run,
)
from scrapesmith.lists.views import ListProgram, ProgramError

__all__ = ["MULTI_SEPARATOR", "RUNTIMES", "HttpRuntime", "ListHeal", "ListPages", "ListProgram",
           "NeedsBrowser", "NoListFound", "NotScalable", "ProgramError", "Recording", "RecordingError",
           "ReplayResult", "RuntimeFactory", "ScrapeFields", "check_dataset", "check_replay",
           "choose_data_lists", "describe", "empty_column_warnings", "extract_from_sources", "extract_list", "heal_list_program",
           "http_runtimes", "list_sources", "make_runtimes", "parse_columns", "record_heuristic",
           "record_program", "replay", "replay_program", "save_run"]
