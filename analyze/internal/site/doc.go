// Package site computes the report on one host (Build): its captures in
// every crawl, its robots.txt with each finding at its line, what it
// says to each tracked crawler, its sitemaps and usage preferences, and
// the findings of the site checks (Check), which run on the report in
// the order of Checks. Adding a check is one *Check in checks.go and its
// place in Checks.
package site
