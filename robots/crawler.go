package robots

import (
	"encoding/json"
	"fmt"
	"slices"
)

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

// Crawler is a crawler the dataset tracks (see [TrackedCrawlers]).
type Crawler struct {
	Token    string // the product token as its operator documents it, e.g. "GPTBot"
	Kind     CrawlerKind
	Operator string // who runs it, when known
	Function string // what it is for, as the ai.robots.txt list says
	// Fallbacks are the tokens whose groups the crawler obeys, in order,
	// when no group names its own token, as its operator documents (the
	// documentation is cited in scripts/gencrawlers and robots/crawlers.go);
	// nil for most crawlers. The '*' groups come after them.
	Fallbacks []string
}

// TrackedCrawlers returns the crawlers the dataset tracks by default (the
// agents table): the major search engines' crawlers, then the AI crawlers
// of the ai.robots.txt list, by token. It returns a new copy each call:
// changing it changes nothing else.
func TrackedCrawlers() []Crawler { return CloneCrawlers(trackedCrawlers) }

// CloneCrawlers returns a deep copy of cs (Fallbacks included).
func CloneCrawlers(cs []Crawler) []Crawler {
	if cs == nil {
		return nil
	}
	out := make([]Crawler, len(cs))
	for i, c := range cs {
		c.Fallbacks = slices.Clone(c.Fallbacks)
		out[i] = c
	}
	return out
}

// crawlerJSON is the form of a crawler in [MarshalCrawlers].
type crawlerJSON struct {
	Token     string   `json:"token"`
	Kind      string   `json:"kind"` // "search" or "ai"
	Operator  string   `json:"operator,omitempty"`
	Function  string   `json:"function,omitempty"`
	Fallbacks []string `json:"fallbacks,omitempty"`
}

// MarshalCrawlers encodes a crawler list as JSON, in order: an array of
// objects with token, kind ("search" or "ai"), operator, function and
// fallbacks. The dataset keeps it in the footer of its agents files, so
// that its reports use the list it was classified with.
func MarshalCrawlers(cs []Crawler) (string, error) {
	out := make([]crawlerJSON, len(cs))
	for i, c := range cs {
		out[i] = crawlerJSON{Token: c.Token, Kind: c.Kind.String(), Operator: c.Operator, Function: c.Function, Fallbacks: c.Fallbacks}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// ParseCrawlers decodes a crawler list written by [MarshalCrawlers]. It
// fails on an unknown kind, an empty or repeated token.
func ParseCrawlers(s string) ([]Crawler, error) {
	var in []crawlerJSON
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, fmt.Errorf("robots: crawler list: %w", err)
	}
	out := make([]Crawler, len(in))
	for i, c := range in {
		var kind CrawlerKind
		switch c.Kind {
		case "search":
			kind = CrawlerSearch
		case "ai":
			kind = CrawlerAI
		default:
			return nil, fmt.Errorf("robots: crawler list: %q has kind %q", c.Token, c.Kind)
		}
		out[i] = Crawler{Token: c.Token, Kind: kind, Operator: c.Operator, Function: c.Function, Fallbacks: c.Fallbacks}
	}
	if err := CheckCrawlers(out); err != nil {
		return nil, err
	}
	return out, nil
}

// CheckCrawlers checks that a crawler list can classify a dataset: every
// crawler has a token, of its own, and a known kind.
func CheckCrawlers(cs []Crawler) error {
	seen := make(map[string]bool, len(cs))
	for _, c := range cs {
		if c.Token == "" || seen[c.Token] {
			return fmt.Errorf("robots: crawler list: empty or repeated token %q", c.Token)
		}
		if c.Kind != CrawlerSearch && c.Kind != CrawlerAI {
			return fmt.Errorf("robots: crawler list: %q has kind %d", c.Token, c.Kind)
		}
		seen[c.Token] = true
	}
	return nil
}

// MatchToken is the crawler's product token, the part of its name Google's
// matcher can use: the name cut at its first character outside [A-Za-z_-]
// ("Ai2Bot-Dolma" is "Ai", "ChatGPT Agent" is "ChatGPT"), by the one rule
// for crawler names, [ExtractAgentToken]. Google's parser cuts the names
// in a robots.txt the same way, so a line "User-agent: Ai2Bot-Dolma" is a
// group for "Ai".
func (c Crawler) MatchToken() string { return ExtractAgentToken(c.Token) }

// TrackedCrawler returns the tracked crawler (see [TrackedCrawlers]) whose
// name (its Token, as the list spells it) is name, ignoring ASCII case.
func TrackedCrawler(name string) (Crawler, bool) {
	for i := range trackedCrawlers {
		if equalFoldASCII(trackedCrawlers[i].Token, name) {
			return CloneCrawlers(trackedCrawlers[i : i+1])[0], true
		}
	}
	return Crawler{}, false
}

// Names reports whether a group of f names agent: a user-agent line whose
// name, cut as Google cuts it, equals agent ignoring ASCII case. This is the
// test [File.Match] uses to pick the groups of a crawler.
func (f *File) Names(agent string) bool {
	return f.namesAny([]string{agent})
}

// Tokens returns the tokens c obeys, in order, as Google's matcher compares
// them: its own ([Crawler.MatchToken]) first, then those of [Crawler.Fallbacks].
func (c Crawler) Tokens() []string {
	out := make([]string, 0, 1+len(c.Fallbacks))
	out = append(out, c.MatchToken())
	for _, t := range c.Fallbacks {
		out = append(out, ExtractAgentToken(t))
	}
	return out
}

// Via says through which group a crawler's verdict came.
type Via uint8

const (
	// ViaNone: no group applies. No group names any of the crawler's
	// tokens and the file has no '*' group, or the HTTP status decided
	// (the body is ignored). The crawler may fetch everything unless the
	// status disallows it.
	ViaNone Via = iota
	// ViaNamed: a group names the crawler's own token.
	ViaNamed
	// ViaFallback: no group names the crawler's own token, and a group
	// names a token it falls back on ([Crawler.Fallbacks]).
	ViaFallback
	// ViaStar: no group names any of the crawler's tokens; the '*' groups
	// decide.
	ViaStar
)

// String returns the stable name used in the dataset: "none", "named",
// "fallback" or "star".
func (v Via) String() string {
	return [...]string{"none", "named", "fallback", "star"}[v]
}

// Select tells whose groups decide for a crawler that obeys tokens in order
// (its own token first, then those it falls back on, as [Crawler.Tokens]
// gives them): the first token some group names, which is tokens[0] with
// [ViaNamed] or a later one with [ViaFallback]. Only one token's groups
// count: a crawler named by its own token ignores the groups of its
// fallbacks, as Google's crawlers follow only the most specific group that
// matches them. When no group names any token the '*' groups decide
// ([ViaStar], token ""), and when there are none, or the status makes
// crawlers ignore the body, no group does ([ViaNone], token "").
// Empty tokens name nothing.
func (f *File) Select(tokens []string) (token string, via Via) {
	if f.Response.bodyIgnored() {
		return "", ViaNone
	}
	for i, t := range tokens {
		if t != "" && f.namesAny([]string{t}) {
			if i == 0 {
				return t, ViaNamed
			}
			return t, ViaFallback
		}
	}
	for gi := range f.Groups {
		if f.Groups[gi].Global {
			return "", ViaStar
		}
	}
	return "", ViaNone
}

// CrawlerAccess returns how much of the site crawler c may fetch and
// through which group the answer came: the [File.Access] of the token
// [File.Select] picks from c's tokens, or of the '*' groups. For a crawler
// without fallbacks the access is that of File.Access(c.MatchToken()).
func (f *File) CrawlerAccess(c Crawler) (Access, Via) {
	return f.TokensAccess(c.Tokens())
}

// TokensAccess is [File.CrawlerAccess] for a crawler that obeys tokens, in
// order, as [File.Select] takes them.
func (f *File) TokensAccess(tokens []string) (Access, Via) {
	t, via := f.Select(tokens)
	if via == ViaNamed || via == ViaFallback {
		return f.Access(t), via
	}
	return f.Access(), via
}

// MatchCrawler returns the verdict for url and crawler c, and through which
// group it came: the [File.Match] of the token [File.Select] picks from
// c's tokens, or of the '*' groups.
func (f *File) MatchCrawler(url string, c Crawler) (Verdict, Via) {
	t, via := f.Select(c.Tokens())
	if via == ViaNamed || via == ViaFallback {
		return f.Match(url, []string{t}), via
	}
	return f.Match(url, nil), via
}
