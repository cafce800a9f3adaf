// Package sections holds the sections of the crawl report: one file
// each, with what it reads, how it counts, its figures (fields of Crawl),
// its trends and its Markdown; its HTML fragment is a template of the
// report page (analyze/html/sections). Compute runs them with package
// engine over one crawl.
//
// Adding a section is one file here (a *Section with its accumulator),
// a line in CrawlSections, and its figures' field in Crawl; the DuckDB
// cross-check of its figures goes in analyze/crosscheck_NAME_test.go.
package sections
