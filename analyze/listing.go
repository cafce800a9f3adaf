package analyze

import (
	"context"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/robocensus/robocensus/robots"
)

// siteListing cuts the deciding capture's body into lines and puts each
// finding at its line.
func (d *Dataset) siteListing(ctx context.Context, sc *SiteCrawl, _ string) error {
	dg := sc.Capture.Digest
	if dg == "" {
		return nil
	}
	texts, err := d.findBodies(ctx, sc.Crawl, []string{dg})
	if err != nil {
		return err
	}
	text, ok := texts[dg]
	if !ok {
		return nil
	}
	sc.Listing, sc.text = newListing(dg, text, sc.findings), text
	return nil
}

// newListing returns the listing of a text with the findings at their
// lines; findings past the last line are put on it.
func newListing(digest, text string, findings []SiteDiagnostic) *Listing {
	byLine := map[int][]SiteDiagnostic{}
	for _, f := range findings {
		if f.Line > 0 {
			byLine[int(f.Line)] = append(byLine[int(f.Line)], f)
		}
	}
	f := robots.ParseString(text)
	l := &Listing{Digest: digest, Total: f.Stats.Lines, Lines: []ListingLine{}}
	gap := 0
	for line := range f.Lines() {
		if line.Number > l.Total && line.Text == "" {
			break // the empty line after the final end of line
		}
		fs := byLine[line.Number]
		delete(byLine, line.Number)
		if line.Number > ListingHead && len(fs) == 0 {
			gap++
			continue
		}
		if gap > 0 {
			l.Lines = append(l.Lines, ListingLine{Skipped: gap})
			gap = 0
		}
		l.Lines = append(l.Lines, ListingLine{Number: line.Number, Text: line.Text, Findings: fs})
	}
	if gap > 0 {
		l.Lines = append(l.Lines, ListingLine{Skipped: gap})
	}
	for _, fs := range byLine { // lines the text does not have (should not happen)
		l.Lines = append(l.Lines, ListingLine{Number: int(fs[0].Line), Findings: fs})
	}
	return l
}

// siteShared counts the other hosts of the crawl with a capture of the
// same non-empty body.
func (d *Dataset) siteShared(ctx context.Context, sc *SiteCrawl, hostName string) error {
	dg := sc.Capture.Digest
	if dg == "" || sc.Capture.Length == 0 {
		return nil
	}
	var mu sync.Mutex
	h := newHasher()
	others := map[uint64]struct{}{}
	spec := scanSpec{table: "captures", crawl: sc.Crawl, columns: []string{"url_host_name", "payload_digest"}}
	return d.scan(ctx, spec, func(_ int, rec arrow.Record) error {
		cs := columnSet{rec: rec}
		hosts, digests := cs.str("url_host_name"), cs.str("payload_digest")
		if cs.err != nil {
			return cs.err
		}
		mu.Lock()
		defer mu.Unlock()
		for i := range hosts.Len() {
			if strOrEmpty(digests, i) == dg && hosts.Value(i) != hostName {
				others[h.sum(hosts.Value(i))] = struct{}{}
			}
		}
		sc.SharedWith = int64(len(others))
		return nil
	})
}
