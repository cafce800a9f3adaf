// Package site computes the report on one host ([Build]): its captures
// in every crawl, its robots.txt with each finding at its line, what it
// says to each tracked crawler, the lines other parsers read otherwise,
// the template blocks of its file (who wrote which lines), its sitemaps
// and usage preferences, and the findings of the site checks.
//
// The site checks are plug-ins in the shape of go/analysis: a [Check] is a
// name, a doc and a Run function that reads a [Pass] (one host's data, its
// robots.txt parsed again by the engine) and reports [Finding] values.
// [Checks] lists the built-in ones; analyze.WithChecks replaces them.
// [Build] gathers the host's data into the [SiteReport] before any
// check runs: a check reads nothing itself.
//
// To add a check NAME:
//
//  1. in checks.go, a documented var NAMECheck = &[Check]{...}:
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
package site
