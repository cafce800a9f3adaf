// Package sections holds the sections of the crawl report, one file
// each, and the figures they write (Crawl); [Compute] runs them with
// package engine over one crawl.
//
// The crawl report is made of sections, plug-ins in the shape of
// go/analysis analyzers: a
// [Section] value names what it reads (Needs: tables, as engine.Table values
// such as engine.CapturesTable or engine.DecidingTable, so that a misspelled table
// does not compile, and columns, which TestSectionNeeds checks against
// the dataset's schema), returns
// a new accumulator for each worker of the driver (Add a record, Merge
// another worker's counts, Finish into the [Crawl]), lists its Trends and
// renders itself in Markdown and, with its template fragment, in HTML. The
// engine (package engine: sectiondriver.go, feeds.go) owns every pass: it feeds the
// captures, diagnostics, rules and agents tables from the first batch's
// passes, which read them anyway to mark captures, and finishes the
// sections that need only captures as soon as that pass ends; it reads any
// other table once per crawl. What it marks in the batches reaches the
// sections as pseudo-tables (engine/section.go): "marks" (every capture with its
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
//  1. section_NAME.go (this package): the Section value with its Name, Doc,
//     Title (its link in the HTML page's table of contents, drawn when
//     its fragment draws something), Needs, New, Trends and Markdown,
//     and its accumulator; the figures are a field of [Crawl], with its
//     JSON name, documented in report.go: the one line outside the
//     section's files besides its registration, since the JSON report
//     is the struct;
//  2. analyze/html/sections/NAME.tmpl: {{define "section-NAME"}}, drawn
//     with the crawl's figures as dot, and what the section's View
//     returns (its charts) as .View;
//  3. one line: add it to CrawlSections (registry.go), where the report
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
// JSON key), classic mistakes, where crawlers disagree ("readings", the
// census of parsers), who wrote these files ("templates"), worst hosts, strata, changes since the previous crawl (the only section that compares crawls: it hands its
// per-host state from one crawl to the next through the report's carry,
// engine/carry.go), inputs. The overview has no fragment: the page draws its
// figures in its header line and cards (InHeader). The crawl passes keep
// only what marks captures, picks deciding captures and weighs effective
// ones.
package sections
