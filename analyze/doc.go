// Package analyze computes the site-health reports of a robocensus dataset:
// the crawl report, with the figures of every crawl partition and their
// trends, and the site report on one host, with the findings of the site
// checks. It is the last stage of the data flow: ingest writes a crawl's
// partition (package ingest/dataset, in the tables of package schema), and
// analyze reads the published files with [schema.NewArrowReader], needing
// no database. cmd/robocensus's report command is its user.
//
// The work is done by a package a job under analyze/internal, each
// importing only those before it (the rules are in internal/archtest):
// scan reads the dataset (files, row-group units, typed columns); render
// writes numbers, Markdown and SVG charts; engine runs the host batches
// and feeds the sections (its Section, Need and Accumulator are the
// protocol every section is a client of); sections holds the crawl
// report's sections and the figures they write ([Crawl]); site computes
// the site report and runs its checks. This package is the façade, and
// the only one other packages may import: Open and its options, the
// reports, and their HTML and Markdown pages.
//
//	d, err := analyze.Open(os.DirFS("robocensus-data"))
//	r, err := d.Report(ctx)                 // every crawl
//	err = r.Write(w, analyze.HTML, "title") // or Markdown, JSON
//	s, err := d.Site(ctx, "example.com")    // one host
//
// The entry points: [Open] reads a dataset's layout, with [Option] values
// ([WithCrawls], [WithMemory], [WithHostBatches], [WithChecks], ...);
// [Dataset.Report] computes the crawl report ([Report], one [Crawl] per
// partition), [Dataset.Site] the site report ([SiteReport]), and
// [Report.Write] and [SiteReport.Write] render either. To add a figure to
// the crawl report, add a section (internal/sections); to add a finding
// to the site report, add a check (internal/site).
//
// # Definitions
//
// The figures are defined so that SQL over the same files gives the same
// numbers; this package's cross-checks (crosscheck_*_test.go) compute
// each one again with DuckDB.
//
//   - A capture is a row of captures; hosts are distinct url_host_name
//     values. Each crawl partition (crawl=LABEL) is reported on its own.
//   - A read capture has HTTP status 2xx or none (tar entries, files):
//     crawlers read its body. Sizes and sitemaps are shares of read captures.
//   - The deciding capture of a host in a crawl is its own answer: among
//     its captures, one that is not a redirect if there is one, then the
//     latest fetch_time (NULL last), then the smallest capture_id
//     ([schema.DecidesBefore]). Shared bodies and the worst hosts use it.
//   - The effective capture of a host is the one whose answer decides for
//     it once redirects are followed, as Google follows them: the hosts
//     table's effective_capture_id (the end of the deciding capture's
//     redirect chain, at most 5 hops, across hosts), or the deciding
//     capture when the chain is not resolved (the redirect answers). What
//     hosts say to crawlers, their usage preferences and the hosts with a
//     usable robots.txt use it: a host that redirects to a robots.txt
//     blocking GPTBot blocks GPTBot, and a capture several hosts redirect
//     to counts once for each (effective.go). A crawl written before the
//     hosts table (schema 1.2 and older) has no redirects followed: its
//     effective captures are its deciding captures.
//   - A usable robots.txt is a capture with outcome rules or no-rules, or
//     unknown (no HTTP status: a tar entry or a file that is a robots.txt),
//     robots.Outcome.Usable. A body with no HTTP status is judged by its
//     content exactly as a 2xx body is: without a rule, HTML, XML, binary
//     or UTF-16 content makes it not-robots, not usable. The hosts table's
//     fetch classes robots-with-rules and robots-no-rules are the usable
//     captures, so the strata agree. (A crawl published by an earlier
//     version has outcome unknown for every body with no status, and
//     counts each usable.) A host has one when its effective capture is
//     one.
//   - Diagnostic prevalence is the share of all captures with at least one
//     row of the code, and the count of rows; every code of the catalogue is
//     listed, found or not, and so are the reader's "ingest-" codes found.
//   - A crawler is named when a group names it (agents.named), and fully
//     or partially disallowed by agents.verdict, which the engine's matcher
//     computed with the '*' group applying to crawlers a file does not name.
//     Both are given over the hosts with a usable robots.txt and over all
//     hosts (where 5xx answers count as fully disallowed).
//   - Where crawlers disagree counts, over every host with an effective
//     capture, the hosts where the readings table (schema 2.2) has a row
//     of that capture whose root verdict (root_allowed against
//     google_root_allowed), or full block (blocked against
//     google_blocked), differs, for at least one crawler of the group: the
//     tracked AI crawlers, the search engines, or one crawler by name. A
//     host counts once per difference class of those rows; the example is
//     the first such host in byte order. A crawl without readings files
//     has no readings.
//   - Who wrote these files counts, per template and version of the
//     binary's catalogue (robots.Templates), the captures with a row of
//     the templates table (schema 2.3) and the hosts whose effective
//     capture has one; per tracked AI crawler, the hosts whose effective
//     capture's agents row is "disallowed", by agents.source (template,
//     site, both); the hosts with an agents row cancelled (examples: the
//     first five in byte order); and the pasted ai.robots.txt lists, a
//     host counting once per release (version) its lists match, aged from
//     the release's date to the day of the capture's fetch_time (the
//     median rounded half away from zero; over six months is over 182
//     days, over a year over 365). A template or version the catalogue
//     does not hold counts for nothing; a crawl without templates files
//     has none of these figures. A capture with two blocks of one version
//     counts once.
//   - Shared bodies ("domain farms") are payload digests of usable,
//     non-empty deciding captures served by two or more hosts.
//   - Changes since the previous crawl compare each crawl of the report
//     with the one before it in the report (time order; with
//     WithCrawls, the crawls picked), host by host (url_host_name). A
//     host appeared when only the later crawl has a capture of it, and
//     disappeared when only the earlier one has. Of the hosts of both, a
//     host started disallowing an AI crawler (of the strata's list)
//     when the agents verdict of its effective capture (redirects
//     followed) is "disallowed" now and was not, and stopped when it was
//     and is not; likewise "partially-disallowed" (disallowed to
//     partially disallowed is both a stop and a start); no agents row
//     counts as allowed. Its robots.txt changed when both effective
//     captures have a content digest and they differ; its fetch class
//     changed when it has a row of the hosts table in both crawls with
//     different classes. Examples are the first Top host names in byte
//     order. The crawlers section and the site report's change check
//     (which applies these definitions to one host, between the crawls
//     that have it) use the same effective captures, and so do notebooks
//     03 and 12; notebooks/12_changes.sql lists the per-host changes.
//
// Every ratio carries its denominator ([Ratio]).
//
// # Rendering
//
// [Report.Write] and [SiteReport.Write] write HTML, Markdown or JSON with the
// same figures. The HTML is one self-contained page: inline CSS and SVG
// charts drawn by html/template, no script, nothing fetched, and a
// Content-Security-Policy that forbids both. Robots.txt content is
// untrusted: html/template escapes it in every context, Markdown output
// escapes it or puts it in code spans and fences, and the terminal summary
// replaces control characters.
//
// # Memory and speed
//
// The crawl report holds what it knows of each capture for one host batch
// at a time: the captures of a crawl are split by host into batches, and
// the tables are read once per batch, so more batches use less memory and
// take longer, for the same figures. A batch costs [BytesPerCapture] per
// capture over [BaseMemory], and the shared-bodies counts [BytesPerBody]
// per row of the bodies table: [WithMemory] chooses as few batches as fit,
// [WithHostBatches] sets their number. The engine's documentation
// (internal/engine) has the model in full; the measured times and peaks
// are in the README, Performance, and scripts/bench-report.sh measures
// them again.
package analyze
