package analyze

// The sections still computed by the crawl passes (crawl.go, passes.go,
// rank.go, agents.go): listed for their rendering, their figures not yet
// their own. Each moves to a file of its own, as sitemaps did.

var farmsSection = &Section{Name: "farms", Doc: "bodies shared by many hosts",
	Markdown: func(m *mdWriter, c *Crawl, _ int) { mdFarms(m, &c.Farms) }}
