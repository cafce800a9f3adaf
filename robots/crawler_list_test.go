package robots

import (
	"reflect"
	"strings"
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

// TrackedCrawler finds every tracked crawler by its name in any ASCII case,
// a copy each time, and nothing by another name; no two names of the list
// differ only in case, so the name picks one crawler.
func TestTrackedCrawler(t *testing.T) {
	seen := map[string]string{}
	for _, want := range TrackedCrawlers() {
		lower := strings.ToLower(want.Token)
		if other, ok := seen[lower]; ok {
			t.Errorf("%q and %q differ only in case", other, want.Token)
		}
		seen[lower] = want.Token
		for _, name := range []string{want.Token, lower} {
			got, ok := TrackedCrawler(name)
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("TrackedCrawler(%q) = %+v, %v; want %+v", name, got, ok, want)
			}
		}
	}
	if c, ok := TrackedCrawler("Linguee Bot"); !ok || c.MatchToken() != "Linguee" {
		t.Errorf(`TrackedCrawler("Linguee Bot") = %+v, %v; want the crawler of product token "Linguee"`, c, ok)
	}
	// The copy test needs a tracked crawler with fallbacks: the first one.
	var withFallbacks string
	for _, c := range TrackedCrawlers() {
		if len(c.Fallbacks) > 0 {
			withFallbacks = c.Token
			break
		}
	}
	if withFallbacks == "" {
		t.Fatal("no tracked crawler has fallbacks: the copy test below proves nothing")
	}
	c, _ := TrackedCrawler(withFallbacks)
	c.Fallbacks[0] = "changed"
	if again, _ := TrackedCrawler(withFallbacks); again.Fallbacks[0] == "changed" {
		t.Error("changing a crawler TrackedCrawler returned changed the list")
	}
	for _, name := range []string{"", "*", "Googlebot/2.1", "Linguee", "Linguee Bot ", "NoSuchBot"} {
		if c, ok := TrackedCrawler(name); ok {
			t.Errorf("TrackedCrawler(%q) = %+v, want none", name, c)
		}
	}
}
