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
// the crawl report, add a section (see Sections); to add a finding to the
// site report, add a check (see Checks).
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
// # Checks
//
// The site checks are plug-ins in the shape of go/analysis: a [Check] is a
// name, a doc and a Run function that reads a [Pass] (one host's data, its
// robots.txt parsed again by the engine) and reports [Finding] values.
// [Checks] lists the built-in ones; [WithChecks] replaces them.
// [Dataset.Site] gathers the host's data into the [SiteReport] before any
// check runs: a check reads nothing itself.
//
// To add a check NAME:
//
//  1. in analyze/checks.go, a documented var NAMECheck = &[Check]{...}:
//     its Name (stable: it is in the findings), its Doc (a first line that
//     stands alone), and its Run, which reads pass.Site, pass.Latest and
//     pass.File and reports with [Pass.Reportf]; what it needs and the
//     site report lacks is gathered in site.go, as a field of
//     [SiteReport] or [SiteCrawl];
//  2. one line: add it to [Checks], in the order the checks run (findings
//     are sorted by severity, then in that order);
//  3. its test in checks_test.go, on a site built by hand (runCheck): the
//     Run of every check in checks.go is a mutant of scripts/mutate.sh, and
//     the test must fail without it.
//
// # Sections
//
// The crawl report is made of sections, plug-ins in the same shape: a
// [Section] value names what it reads (Needs: tables, as [Table] values
// such as [CapturesTable] or [DecidingTable], so that a misspelled table
// does not compile, and columns, which TestSectionNeeds checks against
// the dataset's schema), returns
// a new accumulator for each worker of the driver (Add a record, Merge
// another worker's counts, Finish into the [Crawl]), lists its Trends and
// renders itself in Markdown and, with its template fragment, in HTML. The
// driver (sectiondriver.go, feeds.go) owns every pass: it feeds the
// captures, diagnostics, rules and agents tables from the first batch's
// passes, which read them anyway to mark captures, and finishes the
// sections that need only captures as soon as that pass ends; it reads any
// other table once per crawl. What it marks in the batches reaches the
// sections as pseudo-tables (section.go): "marks" (every capture with its
// codes, end anchor, read, non-empty, deciding and usable marks and a
// hash of its digest), "marked captures" (every capture as its row of
// captures and marks), "deciding captures" (every host as its deciding
// capture's row of captures and marks), "effective captures" (every
// capture that decides for hosts once redirects are followed, with the
// number of hosts it decides for; "effective hosts" with their names),
// "chosen hosts" (for a ranking that needs every host counted first: once
// the last batch's marks are fed, the hosts whose deciding capture the
// section chose, fed again) and "host T" for a table T keyed by
// capture_id ("host agents", "host directives", "host preferences": the
// rows of T of each effective capture, with a tally the section keeps per
// capture). A section that shows bodies lists their digests, and the
// driver reads their texts (BodyReader). A section opens no file and
// knows nothing of batches or row groups. The dataset's "hosts" table is
// read like any other table, once per crawl.
//
// To add a section NAME:
//
//  1. analyze/internal/sections/section_NAME.go: the Section value with its Name, Doc,
//     Title (its link in the HTML page's table of contents, drawn when
//     its fragment draws something), Needs, New, Trends and Markdown,
//     and its accumulator; the figures are a field of [Crawl], with its
//     JSON name, documented in internal/sections/report.go: the one line outside the
//     section's files besides its registration, since the JSON report
//     is the struct;
//  2. analyze/html/sections/NAME.tmpl: {{define "section-NAME"}}, drawn
//     with the crawl's figures as dot, and what the section's View
//     returns (its charts) as .View;
//  3. one line: add it to CrawlSections (internal/sections/sections.go), where the report
//     shows it; its trends take their place in the trends table by its
//     TrendOrder, then report order (TrendOrder 2 puts them after all
//     the older series);
//  4. its test on a fixture counted by hand, in section_NAME_test.go
//     (or sections_test.go, where the first sections' are). The
//     accumulator's feed methods (Add, Merge, AddMarks, AddHosts, ...)
//     are mutants of scripts/mutate.sh by themselves; mark a helper that
//     computes with a //mutate:catch line in its doc comment (see
//     scripts/mutate), and the test must fail without it;
//  5. its DuckDB cross-check, analyze/crosscheck_NAME_test.go,
//     registering itself: var _ = sectionCheck("NAME", checkNAME).
//     TestEverySectionCrossChecked fails while a section of
//     [SectionNames] has none.
//
// Every figure of the crawl report is computed by a section: overview,
// outcomes, crawlers, usage preferences, diagnostics, sizes, rules,
// typos, user agents, sitemaps, shared bodies ("farms", its HTML id and
// JSON key), classic mistakes, worst hosts, strata, changes since the
// previous crawl (the only section that compares crawls: it hands its
// per-host state from one crawl to the next through the report's carry,
// internal/engine/carry.go), inputs. The overview has no fragment: the page draws its
// figures in its header line and cards (InHeader). The crawl passes keep
// only what marks captures, picks deciding captures and weighs effective
// ones.
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
// Tables are read in record batches (16,384 rows; 64 for bodies), with the
// row groups of each file shared out among the workers (a published
// partition has one or two large files per table), so memory does not grow
// with the rows of diagnostics, rules or agents. What the report keeps of each capture is bounded by host batches:
// the captures of a crawl partition are split by a 64-bit hash of
// url_host_name into P batches processed one after the other. P is
// ceil(captures / [DefaultBatchCaptures]) from the row counts in the
// captures files' footers, so that a batch holds at most about 1,048,576
// captures; or as few as fit the memory given with [WithMemory] (what
// robocensus report does, with its soft memory limit); or what
// [WithHostBatches] sets. The figures are the same for any
// P (the tests compare the JSON of 1, 3 and 7 batches, and more on a dataset
// made for it):
//
//   - Per-host choices are made within a batch, which holds every capture
//     of its hosts: the deciding capture, usable hosts, the verdicts of
//     the agents table, what hosts say of AI crawlers. A host whose
//     effective capture is of another batch's host is counted in that
//     batch: each batch reads the hosts table (two columns) and weighs
//     each of its captures by the hosts it decides for.
//   - Counts add up over the batches. The first batch also counts, over
//     every row, what needs no capture state (outcomes and statuses,
//     sizes, user agents named, diagnostic rows and typos, rules); the
//     later batches read only the columns that index and mark captures.
//   - The worst hosts are ranked in one list as the hosts of each batch
//     are fed.
//   - The shared bodies are chosen once the last batch's marks are fed,
//     when the hosts of every body are counted: those served by as many
//     hosts as the last listed can be. Their hosts are fed again ("chosen
//     hosts"), with their digests and names, and the bodies ranked as
//     they come: the last batch's in its hosts pass, the other batches' by
//     indexing them again (their captures only).
//
// A batch keeps 48 bytes per capture and 5.3 to 10.7 bytes of index (an
// open-addressing table of capture indices by ID hash), and, while its
// captures are read, 32 bytes and a map entry per host (about 62 bytes
// per host with the entry): some 120 bytes per capture at most, about
// 125 MB for a full batch whose captures are each their own host; 53 to 59
// bytes per capture from the end of its captures pass to the end of its
// passes.
//
// Figures keyed by something other than the host keep state per distinct
// key for the whole crawl, whatever P:
//
//   - sizes: a count per distinct real size (payload_length_real) of the
//     read captures, 20 to 40 bytes each (at most one per byte count up
//     to the stored-bytes cap, and one per larger file, which are few), in
//     each worker, until the first batch's captures pass ends;
//   - user agents named: a count per distinct lower-cased value, its bytes
//     and some 40 to 60 more, in each worker, until the first batch's
//     captures pass ends;
//   - typos: a count per distinct misspelled key and code;
//   - shared bodies: a count of hosts per distinct payload digest hash of
//     the hosts' usable, non-empty deciding captures, 20 to 40 bytes each,
//     until the last batch's marks are fed; then only the bodies that may
//     be listed (as many as listed, and those tied with the last).
//     A crawl where most hosts serve a body of their own has about one
//     entry per host: 1.2 to 2.4 GB for 60 million hosts, the largest
//     state of a Common Crawl partition;
//   - agents not tracked: verdict counts per distinct agents.agent value.
//
// A section that needs a "host T" table (crawlers, usage preferences)
// keeps a tally of 8 bytes per capture of the batch, made after the
// batch's hosts are let go, so under the captures pass's peak. Usage
// preferences reads the directives and preferences tables once per
// batch for the rows of the usable hosts' effective captures, and takes
// GPTBot's verdict from the agents pass the crawlers section makes
// anyway; classic mistakes reads four more columns of captures in the
// pass that feeds the hosts ("marked captures"). No set of capture IDs or
// hosts lives beyond a batch. What the two sections cost: see README,
// Performance.
//
// The per-host figures follow redirects (effective.go): each batch reads
// two columns of the hosts table once and keeps a 4-byte weight per
// capture (in the 48 bytes). The changes section needs the names of the
// hosts each capture decides for ("effective hosts"): 12 bytes and the
// name's bytes per host of the batch, kept while its passes run (its
// measured cost: see README, Performance).
//
// The changes section keeps no per-host state in memory beyond a
// buffer of 16 MiB (changesRunBytes, 24 bytes and the name per host):
// each host's name and 12 bytes go to runs sorted by name in a temporary
// folder (twice per host: its row of the hosts table and its effective
// capture), merged at the end of the crawl, joined with the previous
// crawl's merged file and written as this crawl's (hoststate.go): some
// 28-38 bytes of disk per host and file, 1.5-2 GB for 50 million hosts,
// about four times that at the end of a crawl (runs, previous file, new
// file). Its measured cost in CPU and memory: see README, Performance.
//
// The price of batches is time: every batch reads the captures,
// diagnostics, rules and agents tables again (the columns it needs), so a
// report takes about P times the work of one pass over the crawl, which
// grows as the square of the crawl's size once it needs more than one
// batch.
//
// The repetitive string columns (capture_id, agent and verdict of the
// agents table, one row per capture and tracked crawler, some 180 per
// capture; capture_id, code, severity and directive of diagnostics and
// rules; outcome) are read as Arrow dictionaries ([schema.WithDictionary]):
// each distinct value of a record is looked at once and each row is an
// index. Reading the agents table is still half the time, most of it in
// Arrow decoding the indices of every row.
//
// 64-bit hashes stand for capture IDs, host names and digests: a collision
// (about 1 in 3·10⁷ for a million identifiers) would merge two. Crawls are
// reported one after the other, so the largest partition sets the peak.
// The Go heap may grow to twice what is live: robocensus report sets a
// soft memory limit (three quarters of the memory available, or --memory)
// unless GOMEMLIMIT or --host-batches is set, and chooses the batches to
// fit the limit (WithMemory).
//
// The measured times and peaks of the crawl and site reports (1 and 4.5
// million captures, each number of batches), and what a full Common Crawl
// partition would take: see README, Performance; scripts/bench-report.sh
// measures them again.
package analyze
