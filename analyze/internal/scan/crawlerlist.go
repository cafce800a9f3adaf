package scan

import (
	"fmt"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// crawlerList is the crawler list a crawl's agents table was classified
// with, and the place of each token in it. Ingest records the list in the
// footer of every agents file (schema.CrawlersKey); a dataset written
// before has none, and its crawls use the binary's list
// (robots.TrackedCrawlers). It is never modified once made.
type CrawlerList struct {
	Crawlers []robots.Crawler
	index    map[string]int // token -> index in crawlers
}

func NewCrawlerList(crawlers []robots.Crawler) *CrawlerList {
	l := &CrawlerList{Crawlers: crawlers, index: make(map[string]int, len(crawlers))}
	for i, c := range crawlers {
		l.index[c.Token] = i
	}
	return l
}

// defaultCrawlerList is the binary's list, for datasets that record none.
func DefaultCrawlerList() *CrawlerList { return NewCrawlerList(robots.TrackedCrawlers()) }

// lookup returns the index of agent in the list.
func (l *CrawlerList) Lookup(agent string) (int, bool) {
	k, ok := l.index[agent]
	return k, ok
}

// kind returns "search" or "ai" for a crawler of the list, "other" for
// another agent.
func (l *CrawlerList) Kind(agent string) string {
	if k, ok := l.index[agent]; ok {
		return l.Crawlers[k].Kind.String()
	}
	return "other"
}

// order is the place of an agent in the list; others last.
func (l *CrawlerList) Order(agent string) int {
	if k, ok := l.index[agent]; ok {
		return k
	}
	return len(l.Crawlers)
}

// crawlerList reads the crawler list of a crawl from the footers of its
// agents files. The files that record one must record the same; when none
// does (a dataset written before the key, or no agents table), the list is
// the binary's.
func (d *Dataset) CrawlerList(crawl string) (*CrawlerList, error) {
	files, err := d.files("agents", crawl)
	if err != nil {
		return nil, err
	}
	var list, from string
	for _, name := range files {
		r, closeFile, err := d.openArrow(name, Spec{Table: "agents"})
		if err != nil {
			return nil, err
		}
		v := r.Metadata(schema.CrawlersKey)
		closeFile()
		switch {
		case v == "":
		case list == "":
			list, from = v, name
		case v != list:
			return nil, fmt.Errorf("analyze: crawl %s: %s and %s record different crawler lists", crawl, from, name)
		}
	}
	if list == "" {
		return DefaultCrawlerList(), nil
	}
	crawlers, err := robots.ParseCrawlers(list)
	if err != nil {
		return nil, fmt.Errorf("analyze: %s: %w", from, err)
	}
	return NewCrawlerList(crawlers), nil
}

// followedAI returns the AI crawlers followed host by host, in the strata
// and in the changes between crawls (schema.FollowedAICrawlers), in order,
// with "" in place of those the crawl's list does not track as AI crawlers.
func (l *CrawlerList) FollowedAI() []string {
	names := schema.FollowedAICrawlers()
	for i, n := range names {
		if k, ok := l.index[n]; !ok || l.Crawlers[k].Kind != robots.CrawlerAI {
			names[i] = ""
		}
	}
	return names
}
