package robots

import (
	"mime"
	"net/url"
	"strconv"
	"strings"
)

// Response describes how a robots.txt body was served. The zero value means
// "unknown": the body is judged on its content alone (a local file, a tar
// entry).
type Response struct {
	Status      int    // HTTP status code; 0 when unknown
	ContentType string // the Content-Type header, if any
	URL         string // the robots.txt URL, used to tell cross-host redirects
	Location    string // the Location header of a redirect
	// Truncated is why the crawler cut the body (WARC-Truncated: "length",
	// "time", "disconnect", ...), if it did: crawler-truncated.
	Truncated string
	// StoredTruncated is why the reader that stored the capture kept only
	// part of the body, if it did, for a reason of its own
	// ([StoredTruncationReasons]): stored-truncated.
	StoredTruncated string
}

// Outcome is what a crawler following Google's rules makes of a capture.
type Outcome uint8

const (
	// OutcomeUnknown: no HTTP status (e.g. a tar entry) and a body that is
	// a robots.txt (it has a rule, or is not HTML, XML, binary or UTF-16),
	// with or without rules; verdicts come from the content. Also a status
	// outside 200-599.
	OutcomeUnknown Outcome = iota
	// OutcomeRules: 2xx with at least one rule in a group, which Google
	// obeys even when the file is an HTML page.
	OutcomeRules
	// OutcomeNoRules: 2xx with nothing to obey: full allow.
	OutcomeNoRules
	// OutcomeNotRobots: 2xx or no HTTP status, no rule, and HTML, XML,
	// binary or UTF-16 content: not a robots.txt at all (full allow).
	OutcomeNotRobots
	// OutcomeRedirect: 3xx; the target decides.
	OutcomeRedirect
	// OutcomeAllowAll: 4xx other than 429: full allow.
	OutcomeAllowAll
	// OutcomeDisallowAll: 5xx and 429: full disallow.
	OutcomeDisallowAll
)

// String returns the stable name stored in the dataset's outcome column.
func (o Outcome) String() string {
	return [...]string{"unknown", "rules", "no-rules", "not-robots", "redirect", "allow-all", "disallow-all"}[o]
}

// ParseOutcome returns the outcome whose String is name; ok is false for
// any other name.
func ParseOutcome(name string) (o Outcome, ok bool) {
	for o := OutcomeUnknown; o <= OutcomeDisallowAll; o++ {
		if o.String() == name {
			return o, true
		}
	}
	return OutcomeUnknown, false
}

// Usable reports whether a capture with this outcome is a usable
// robots.txt: a file crawlers obey for its rules, or for having none. That
// is a 2xx answer that is a robots.txt (rules, no-rules), and a body with
// no HTTP status (a tar entry, a file) that is one (unknown): a body with
// no status is judged by its content exactly as a 2xx body is, so that an
// HTML page without rules is not-robots, served with 200 or not. A body
// that is not a robots.txt, a redirect and a 4xx or 5xx answer are not
// usable. The dataset's fetch classes (robots-with-rules and
// robots-no-rules are the usable captures) and the reports' usable hosts
// are both this.
func (o Outcome) Usable() bool {
	return o == OutcomeRules || o == OutcomeNoRules || o == OutcomeUnknown
}

// Outcome applies Google's HTTP rules (RFC 9309 §2.3.1) to the capture.
// A body with no HTTP status (Status 0: a tar entry, a file) is judged by
// its content as a 2xx body is: not-robots when it has no rule and is not
// a robots.txt, unknown otherwise. Statuses outside 200-599 are "unknown".
func (f *File) Outcome() Outcome {
	s := f.Response.Status
	switch {
	case s == 0:
		if f.Stats.Rules == 0 && f.notRobots() {
			return OutcomeNotRobots
		}
		return OutcomeUnknown
	case s >= 200 && s < 300:
		switch {
		case f.Stats.Rules > 0:
			return OutcomeRules
		case f.notRobots():
			return OutcomeNotRobots
		}
		return OutcomeNoRules
	case s >= 300 && s < 400:
		return OutcomeRedirect
	case s == 429 || (s >= 500 && s < 600):
		return OutcomeDisallowAll
	case s >= 400 && s < 500:
		return OutcomeAllowAll
	}
	return OutcomeUnknown
}

// bodyIgnored reports whether the status makes crawlers ignore the body:
// any known status outside 2xx.
func (r Response) bodyIgnored() bool {
	return r.Status != 0 && (r.Status < 200 || r.Status >= 300)
}

// notRobots reports whether the body is not a robots.txt at all: a
// whole-file finding of [NotRobotsCodes] (HTML, XML, binary or UTF-16
// content).
func (f *File) notRobots() bool {
	for _, d := range f.Diagnostics {
		if d.Line > 0 {
			break
		}
		if IsNotRobotsCode(d.Code) {
			return true
		}
	}
	return false
}

// httpDiagnostics returns the whole-file findings about the response.
func (r Response) httpDiagnostics(add func(Code, string)) {
	s := r.Status
	status := strconv.Itoa(s)
	switch {
	case s == 0:
	case s >= 300 && s < 400:
		add(HTTPRedirect, r.Location)
		if h := redirectTargetHost(r.URL, r.Location); h != "" {
			add(RedirectCrossHost, h)
		}
	case s == 404 || s == 410:
		add(HTTP404, status)
	case s == 429:
		add(HTTP429, status)
	case s >= 400 && s < 500:
		add(HTTP4xx, status)
	case s >= 500 && s < 600:
		add(HTTP5xx, status)
	}
	if r.Truncated != "" {
		add(CrawlerTruncated, r.Truncated)
	}
	if r.StoredTruncated != "" {
		add(StoredTruncated, r.StoredTruncated)
	}
	if r.ContentType != "" && !r.bodyIgnored() {
		mt, _, err := mime.ParseMediaType(r.ContentType)
		if err != nil || mt != "text/plain" {
			add(NonTextContentType, r.ContentType)
		}
	}
}

// redirectTargetHost returns the host of a redirect target when it differs
// from the host of base (ignoring case), else "". www.example.com and
// example.com are different hosts: each has its own robots.txt.
func redirectTargetHost(base, location string) string {
	if base == "" || location == "" {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	l, err := url.Parse(location)
	if err != nil {
		return ""
	}
	target := b.ResolveReference(l)
	from, to := strings.ToLower(b.Hostname()), strings.ToLower(target.Hostname())
	if from == "" || to == "" || from == to {
		return ""
	}
	return to
}
