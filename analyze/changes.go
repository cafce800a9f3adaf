package analyze

import (
	"fmt"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

// ChangeCheck reports what changed between the crawls of the dataset.
var ChangeCheck = &Check{
	Name: "changes",
	Doc: `what changed between crawls
Compares each crawl with the one before: the answer (status and outcome), the
file itself (payload digest), and the verdict for each tracked crawler.`,
	Run: runChanges,
}

// maxVerdictChanges is the most crawlers listed in one change finding.
const maxVerdictChanges = 12

func runChanges(p *Pass) error {
	crawls := p.Site.Crawls
	for i := 1; i < len(crawls); i++ {
		before, after := crawls[i-1], crawls[i]
		report := func(sev robots.Severity, format string, args ...any) {
			p.Report(Finding{Severity: sev.String(), Crawl: after.Crawl, Message: fmt.Sprintf(format, args...)})
		}
		b, a := &before.Capture, &after.Capture
		if b.Outcome != a.Outcome || b.Status != a.Status {
			sev := robots.Info
			if a.Outcome == robots.OutcomeDisallowAll.String() || a.Outcome == robots.OutcomeNotRobots.String() {
				sev = robots.Warning
			}
			report(sev, "the answer changed from %s (%s) in %s to %s (%s) in %s", status(b.Status), b.Outcome, before.Crawl, status(a.Status), a.Outcome, after.Crawl)
		}
		if b.Digest != a.Digest && b.Digest != "" && a.Digest != "" {
			report(robots.Info, "the file changed between %s and %s (%s → %s)", before.Crawl, after.Crawl, shortDigest(b.Digest), shortDigest(a.Digest))
		}
		if ch := verdictChanges(before, after); len(ch) > 0 {
			report(robots.Info, "crawler verdicts changed between %s and %s: %s", before.Crawl, after.Crawl, strings.Join(firstN(ch, maxVerdictChanges), "; "))
		}
	}
	return nil
}

// verdictChanges lists the tracked crawlers whose verdict changed.
func verdictChanges(before, after *SiteCrawl) []string {
	old := map[string]string{}
	for _, c := range before.Crawlers {
		old[c.Agent] = c.Verdict
	}
	var out []string
	for _, c := range after.Crawlers {
		if v, ok := old[c.Agent]; ok && v != c.Verdict {
			out = append(out, fmt.Sprintf("%s %s → %s", c.Agent, v, c.Verdict))
		}
	}
	return out
}

// status formats a fetch_status; 0 is NULL.
func status(s int32) string {
	if s == 0 {
		return "no status"
	}
	return fmt.Sprint(s)
}

// shortDigest shortens "sha1:ABCDEF..." for messages.
func shortDigest(d string) string {
	if len(d) > 17 {
		return d[:17] + "…"
	}
	return d
}
