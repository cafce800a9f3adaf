package analyze

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

// A Check is one site-health check, in the shape of go/analysis's
// Analyzer: plain data, a name, its documentation and a Run function that
// looks at one host through a [Pass] and reports findings. The driver
// ([Dataset.Site]) gathers the data and collects the findings; a check
// reads nothing itself.
type Check struct {
	// Name identifies the check in findings, e.g. "fetch". It is stable.
	Name string
	// Doc says what the check looks for: a first line that stands alone,
	// then details.
	Doc string
	// Run looks at pass.Site and calls pass.Report. It returns an error
	// only when it cannot do its job (which stops the report), never for a
	// problem of the site.
	Run func(pass *Pass) error
}

// CheckDoc names a check that ran and gives the first line of its Doc.
type CheckDoc struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// Pass is what a check sees of one host.
type Pass struct {
	// Check is the check being run.
	Check *Check
	// Site is the whole site report, findings of other checks excepted.
	// Checks must not modify it.
	Site *SiteReport
	// Latest is the last crawl with a capture of the host.
	Latest *SiteCrawl
	// File is Latest's robots.txt parsed again by the engine with the
	// capture's status and content type, for checks that match URLs; nil
	// when the dataset keeps no body for it.
	File *robots.File
	// Report records a finding. Its Check field is filled in.
	Report func(Finding)
}

// Finding is one result of a check.
type Finding struct {
	Check    string `json:"check"`
	Severity string `json:"severity"` // "error", "warning" or "info"
	Crawl    string `json:"crawl"`    // the crawl it is about
	Line     int    `json:"line"`     // 0: the whole file
	Message  string `json:"message"`
}

// Reportf reports a finding about Latest at a line (0: the whole file).
func (p *Pass) Reportf(sev robots.Severity, line int, format string, args ...any) {
	p.Report(Finding{Severity: sev.String(), Crawl: p.Latest.Crawl, Line: line, Message: fmt.Sprintf(format, args...)})
}

// Usable reports whether Latest's deciding capture is a robots.txt that
// crawlers obey as a file (see the package documentation).
func (p *Pass) Usable() bool {
	switch p.Latest.Capture.Outcome {
	case robots.OutcomeRules.String(), robots.OutcomeNoRules.String():
		return true
	case robots.OutcomeUnknown.String():
		return p.Latest.Capture.Rules > 0 || !slices.ContainsFunc(p.Latest.FileFindings, func(d SiteDiagnostic) bool {
			return slices.ContainsFunc(contentErrors, func(c robots.Code) bool { return c.String() == d.Code })
		})
	}
	return false
}

// runChecks runs every check on the report and sorts the findings: most
// severe first, then in the order of the checks and lines.
func runChecks(r *SiteReport, checks []*Check) error {
	latest := r.Crawls[len(r.Crawls)-1]
	file := parseLatest(latest)
	for _, c := range checks {
		r.Checks = append(r.Checks, CheckDoc{Name: c.Name, Doc: firstLine(c.Doc)})
		pass := &Pass{Check: c, Site: r, Latest: latest, File: file}
		var found []Finding
		pass.Report = func(f Finding) {
			f.Check = c.Name
			found = append(found, f)
		}
		if err := c.Run(pass); err != nil {
			return fmt.Errorf("analyze: check %s: %w", c.Name, err)
		}
		r.Findings = append(r.Findings, found...)
	}
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		return cmp.Compare(severityRank(a.Severity), severityRank(b.Severity))
	})
	return nil
}

// parseLatest parses the latest crawl's robots.txt again, or returns nil.
func parseLatest(sc *SiteCrawl) *robots.File {
	if sc.Listing == nil {
		return nil
	}
	resp := robots.Response{Status: int(sc.Capture.Status), ContentType: sc.Capture.ContentType, URL: sc.Capture.URL, Location: sc.Capture.Redirect}
	return robots.ParseResponseString(resp, sc.text)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
