"""Exception hierarchy.

Every error a user can cause (bad URL, missing file, unreachable host, refused fetch, bad model output)
derives from :class:`ScrapesmithError`, so the command line can print it as one line and exit non-zero
instead of showing a traceback.

The tree (each class's module in brackets; ``tests/test_errors_map.py`` keeps it complete)::

    ScrapesmithError
        ArchiveError [web.archive]
        BadSeedPage [induce.service]
        BrowserError [web.browser.views]
            ActionFailed [web.browser.views]
            BrowserBusy [web.browser.views]
            BrowserHung [web.browser.runtime]
            BrowserUnavailable [web.browser.views]
            PageCrashed [web.browser.views]
        CacheMiss [collect.ohcache.cache]
        CollectionError [collect.runtime]
        CollectionHealError [collect.heal]
        CrawlRuleError [web.crawl]
        EmbeddingModelMissing [llm.embed]
        ExportError [export.service]
        FetchError [web.page]
            BlockedAddress [web.page]
                PrivateAddress [web.page]
            BrowserFetchError [web.browser.views]
            HttpStatusError [web.page]
            InvalidUrl [web.safety]
            LeavesSavedPages [web.files]
            RobotsDisallowed [web.page]
            TooLarge [web.page]
            TooManyRedirects [web.page]
            Unreachable [web.page]
            UnsupportedContent [web.page]
        HealError [induce.heal]
        HostsNotAllowed [collect.program]
        LLMError [llm.views]
            LLMOutputError [llm.views]
                FormatRejected [collect.ohcache.formatter]
                GrammarError [llm.views]
                InvalidAction [insta.agent]
            ModelInstallError [llm.models]
            ModelNotInstalled [llm.views]
            NoModelConfigured [llm.views]
            PromptNotFound [llm.templates]
            PromptTooLongError [llm.views]
            UnknownModelSetting [llm.views]
        ListHealError [lists.heal]
        MarkdownUnavailable [insta.env]
        MiniwobUnavailable [bench.miniwob_tasks]
        NoStartingPoint [collect.agents.research]
        NotRunnableOnPages [collect.pages]
        NotScalable [lists.pages]
        PiiScrubberMissing [insta.export]
        ProgramError [lists.views]
        RayUnavailable [scale.runner]
        ReadRootsNotGranted [collect.program]
        RecordingError [lists.record]
            NoListFound [lists.record]
        RegexTimeout [artifacts]
        ReplayError [lists.runtime]
            NeedsBrowser [lists.runtime]
        ReportError [report.load]
        RunStateError [scale.manifest]
            EarlierRunUnusable [scale.manifest]
            ResumeMismatch [scale.manifest]
            UnfinishedRun [scale.manifest]
        SandboxUnavailable [collect.sandbox]
        SelectorError [dom.selectors]
        SettingsError [config]
        SinkError [io.database]
        SiteServerError [sites.server]
        SpecError [induce.views]
        SwdeDataError [bench.swde]
            SwdeDataMissing [bench.swde]
        SyntheticSiteError [sites.synthetic]
        UnknownGroup [bench.insta_safety]
        UnknownMethod [induce.service]
        UnsafeOutput [collect.outputs]
        WidgetError [insta.widgets]
        WorkflowError [insta.workflow.views]
        XPathSyntaxError [induce.execute]

Catch ``FetchError`` for any page that could not be had, ``LLMError`` for any trouble with the model, and
``ScrapesmithError`` for anything a user can cause.
"""

from __future__ import annotations


class ScrapesmithError(Exception):
    """Base class for errors that are reported to the user as a single line."""
