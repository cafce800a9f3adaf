package robots

import (
	"reflect"
	"testing"
)

// TestTrackedCrawlersIsACopy: changing the returned list changes neither
// the next one nor the list itself.
func TestTrackedCrawlersIsACopy(t *testing.T) {
	a := TrackedCrawlers()
	if len(a) == 0 {
		t.Fatal("no tracked crawlers")
	}
	want := a[0].Token
	a[0].Token = "changed"
	for i := range a {
		if len(a[i].Fallbacks) > 0 {
			a[i].Fallbacks[0] = "changed"
		}
	}
	b := TrackedCrawlers()
	if b[0].Token != want {
		t.Errorf("TrackedCrawlers()[0].Token = %q after changing a copy, want %q", b[0].Token, want)
	}
	for _, c := range b {
		for _, f := range c.Fallbacks {
			if f == "changed" {
				t.Errorf("%s: fallbacks changed through a copy: %q", c.Token, c.Fallbacks)
			}
		}
	}
}

// TestCrawlersJSONRoundTrip: the list the dataset records reads back the
// same, and bad lists are refused.
func TestCrawlersJSONRoundTrip(t *testing.T) {
	list := TrackedCrawlers()
	s, err := MarshalCrawlers(list)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseCrawlers(s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, list) {
		t.Errorf("round trip changed the list")
	}
	custom := []Crawler{{Token: "ExampleAIBot", Kind: CrawlerAI, Fallbacks: []string{"GPTBot"}}, {Token: "Googlebot", Kind: CrawlerSearch}}
	s, _ = MarshalCrawlers(custom)
	if want := `[{"token":"ExampleAIBot","kind":"ai","fallbacks":["GPTBot"]},{"token":"Googlebot","kind":"search"}]`; s != want {
		t.Errorf("MarshalCrawlers = %s, want %s", s, want)
	}
	for _, bad := range []string{`{}`, `[{"token":"X","kind":"other"}]`, `[{"token":"","kind":"ai"}]`, `[{"token":"X","kind":"ai"},{"token":"X","kind":"ai"}]`} {
		if _, err := ParseCrawlers(bad); err == nil {
			t.Errorf("ParseCrawlers(%s) succeeded", bad)
		}
	}
	if err := CheckCrawlers(TrackedCrawlers()); err != nil {
		t.Errorf("the tracked crawlers: %v", err)
	}
	for _, bad := range [][]Crawler{{{Token: ""}}, {{Token: "X"}, {Token: "X", Kind: CrawlerAI}}, {{Token: "X", Kind: 7}}} {
		if err := CheckCrawlers(bad); err == nil {
			t.Errorf("CheckCrawlers(%v) = nil", bad)
		}
	}
}
