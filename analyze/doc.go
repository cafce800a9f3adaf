// Package analyze computes the site-health reports of a robocensus dataset:
// the crawl report, with the figures of every crawl partition and their
// trends, and the site report on one host, with the findings of the site
// checks. It reads the dataset's Parquet files with [schema.NewArrowReader]
// and needs no database; it imports only schema and robots.
//
//	d, err := analyze.Open(os.DirFS("robocensus-data"))
//	r, err := d.Report(ctx)                 // every crawl
//	err = r.Write(w, analyze.HTML, "title") // or Markdown, JSON
//	s, err := d.Site(ctx, "example.com")    // one host
//
// # Definitions
//
// The figures are defined so that SQL over the same files gives the same
// numbers; the tests in cmd/robocensus compute each one again with DuckDB.
//
//   - A capture is a row of captures; hosts are distinct url_host_name
//     values. Each crawl partition (crawl=LABEL) is reported on its own.
//   - A read capture has HTTP status 2xx or none (tar entries, files):
//     crawlers read its body. Sizes and sitemaps are shares of read captures.
//   - The deciding capture of a host in a crawl stands for the host: among
//     its captures, one that is not a redirect if there is one, then the
//     latest fetch_time (NULL last), then the smallest capture_id. Per-host
//     figures (AI crawlers, shared bodies, worst hosts) use it.
//   - A usable robots.txt is a deciding capture with outcome rules or
//     no-rules, or with no status and either a rule or none of the codes
//     html-content, binary-content, bom-utf16 (what makes a 2xx capture
//     not-robots).
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
//
// Every ratio carries its denominator ([Ratio]).
//
// # Checks
//
// The site checks are plug-ins in the shape of go/analysis: a [Check] is a
// name, a doc and a Run function that reads a [Pass] (one host's data, its
// robots.txt parsed again by the engine) and reports [Finding] values.
// [Checks] lists the built-in ones; [WithChecks] replaces them.
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
// Tables are read in record batches (16,384 rows; 64 for bodies), files in
// parallel, so memory does not grow with the rows of diagnostics, rules or
// agents. It grows with the captures of the crawl being reported: 48 bytes
// per capture and a map entry (capture ID hash to index), plus, while the
// captures are read, 32 bytes and a map entry per host. 64-bit hashes stand
// for capture IDs, host names and digests: a collision (about 1 in 3·10⁷
// for a million identifiers) would merge two. Crawls are reported one after
// the other, so the largest partition sets the peak.
//
// Reading the agents table (one row per capture and tracked crawler, 178
// per capture) dominates: Arrow decodes its string columns value by value,
// three quarters of the CPU time. On the shared 2-core VM (2026-11, go1.26,
// scripts/bench-report.sh, a dataset of 1,000,457 captures built with
// scripts/mkwarc and robocensus ingest):
//
//	robocensus report --format json   29-33 s wall, 54 s CPU, 437 MB peak RSS
//	robocensus report (html)          29 s wall, 53 s CPU, 440 MB peak RSS
//	robocensus report --site HOST     27 s wall, 50 s CPU, 156 MB peak RSS
//
// With the neighbours' load the same run took up to 67 s. These figures go
// stale with the code and the machine; rerun the script.
package analyze
