package analyze

// The section still computed by the crawl passes (rank.go, passes.go):
// listed for its rendering, its figures not yet its own. It moves to a
// file of its own, as the others did.

var farmsSection = &Section{Name: "farms", Doc: "bodies shared by many hosts",
	Markdown: func(m *mdWriter, c *Crawl, _ int) { mdFarms(m, &c.Farms) }}
