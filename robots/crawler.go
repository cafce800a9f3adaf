package robots

//go:generate sh -c "go run ../scripts/gencrawlers ../../shared/corpus/robots/ai-robots-txt/robots.json > crawlers.go"

// CrawlerKind tells what a tracked crawler is for.
type CrawlerKind uint8

const (
	// CrawlerSearch is a search engine's web crawler.
	CrawlerSearch CrawlerKind = iota
	// CrawlerAI is an AI crawler or agent of the ai.robots.txt list.
	CrawlerAI
)

// String returns "search" or "ai".
func (k CrawlerKind) String() string {
	if k == CrawlerAI {
		return "ai"
	}
	return "search"
}

// Crawler is a crawler the dataset tracks (see [Crawlers]).
type Crawler struct {
	Token    string // the product token as its operator documents it, e.g. "GPTBot"
	Kind     CrawlerKind
	Operator string // who runs it, when known
	Function string // what it is for, as the ai.robots.txt list says
}

// MatchToken is the part of the token Google's matcher can use: the token
// cut at its first character outside [A-Za-z_-] ("Ai2Bot-Dolma" is "Ai",
// "ChatGPT Agent" is "ChatGPT"). Google's parser cuts the names in a
// robots.txt the same way, so a line "User-agent: Ai2Bot-Dolma" is a group
// for "Ai".
func (c Crawler) MatchToken() string { return ExtractAgentToken(c.Token) }

// Names reports whether a group of f names agent: a user-agent line whose
// name, cut as Google cuts it, equals agent ignoring ASCII case. This is the
// test [File.Match] uses to pick the groups of a crawler.
func (f *File) Names(agent string) bool {
	return f.namesAny([]string{agent})
}
