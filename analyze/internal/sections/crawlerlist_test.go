package sections

import (
	"testing"

	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// The changes section numbers its verdict bits and categories by index in
// schema.FollowedAICrawlers: followedCount must be its length, and the bits must fit
// a hostState's verdicts.
func TestFollowedCount(t *testing.T) {
	if n := len(schema.FollowedAICrawlers()); n != followedCount || 2*n > 16 {
		t.Errorf("schema.FollowedAICrawlers has %d crawlers, followedCount says %d (at most 8)", n, followedCount)
	}
}

// followedAI keeps the followed crawlers the list tracks as AI crawlers.
func TestCrawlerListFollowedAI(t *testing.T) {
	l := scan.NewCrawlerList([]robots.Crawler{{Token: "CCBot", Kind: robots.CrawlerAI}, {Token: "GPTBot", Kind: robots.CrawlerSearch}, {Token: "Other", Kind: robots.CrawlerAI}})
	got := l.FollowedAI()
	want := []string{"", "", "CCBot", "", "", "", ""}
	if len(got) != len(want) {
		t.Fatalf("followedAI() = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("followedAI() = %q, want %q", got, want)
		}
	}
	if l.Kind("GPTBot") != "search" || l.Kind("Other") != "ai" || l.Kind("Googlebot") != "other" || l.Order("Googlebot") != 3 || l.Order("Other") != 2 {
		t.Errorf("kind/order wrong: %s %s %s %d %d", l.Kind("GPTBot"), l.Kind("Other"), l.Kind("Googlebot"), l.Order("Googlebot"), l.Order("Other"))
	}
	for _, n := range scan.DefaultCrawlerList().FollowedAI() {
		if n == "" {
			t.Errorf("the binary's list does not track every followed AI crawler: %q", scan.DefaultCrawlerList().FollowedAI())
		}
	}
}
