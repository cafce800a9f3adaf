package analyze_test

import (
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/robocensus/robocensus/analyze"
)

// TestCrawlOrder: crawls go by time, not label: a Common Crawl label by
// its ISO week, a date label by its date, any other by its earliest fetch
// time; WithCrawls keeps the ones asked for, in that order.
func TestCrawlOrder(t *testing.T) {
	dir := t.TempDir()
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 12, 0, 0, 0, time.UTC) }
	for label, when := range map[string]time.Time{
		"CC-MAIN-2025-05": at(2025, 1, 20), // labels name the week of 27 January 2025, fetched before
		"CC-MAIN-2024-51": at(2025, 3, 1),  // week of 16 December 2024
		"2025-01-01":      at(2026, 1, 1),
		"zz-first":        at(2020, 6, 1),
		"aa-last":         at(2026, 6, 1),
		"mm-feb-2025":     at(2025, 2, 1),
	} {
		var p partition
		p.site(label+"-1", "example.com", 200, "User-agent: *\nDisallow: /x\n", when)
		p.site(label+"-2", "example.org", 200, "User-agent: *\nDisallow: /y\n", when.Add(-time.Hour))
		if err := p.write(dir, label); err != nil {
			t.Fatal(err)
		}
	}
	d, err := analyze.Open(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"zz-first", "CC-MAIN-2024-51", "2025-01-01", "CC-MAIN-2025-05", "mm-feb-2025", "aa-last"}
	if got := d.Crawls(); !slices.Equal(got, want) {
		t.Errorf("crawls %q\nwant %q", got, want)
	}
	d, err = analyze.Open(os.DirFS(dir), analyze.WithCrawls("aa-last", "CC-MAIN-2024-51"))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Crawls(); !slices.Equal(got, []string{"CC-MAIN-2024-51", "aa-last"}) {
		t.Errorf("WithCrawls: %q", got)
	}
	if _, err := analyze.Open(os.DirFS(dir), analyze.WithCrawls("CC-MAIN-1999-01")); !errors.Is(err, analyze.ErrBadOption) {
		t.Errorf("an unknown crawl: %v", err)
	}
}
