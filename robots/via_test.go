package robots

import (
	"testing"
)

// Fallback tokens: a crawler that obeys another token's group when no group
// names it (Googlebot-Image and Googlebot, Applebot and Googlebot; see
// robots/crawlers.go for the operators' documentation).

// crawlerNamed returns the tracked crawler with the given token.
func crawlerNamed(t *testing.T, token string) Crawler {
	t.Helper()
	for _, c := range TrackedCrawlers() {
		if c.Token == token {
			return c
		}
	}
	t.Fatalf("no tracked crawler %q", token)
	return Crawler{}
}

func TestCrawlerAccessVia(t *testing.T) {
	image := Crawler{Token: "Googlebot-Image", Fallbacks: []string{"Googlebot"}}
	chain := Crawler{Token: "FooBot-Image", Fallbacks: []string{"FooBot", "Googlebot"}}
	plain := Crawler{Token: "GPTBot"}
	f := func(body string, c Crawler, wantAccess Access, wantVia Via, wantPath string) {
		t.Helper()
		file := ParseString(body)
		access, via := file.CrawlerAccess(c)
		if access != wantAccess || via != wantVia {
			t.Errorf("%s: CrawlerAccess = %v, %v; want %v, %v\nrobots.txt:\n%s", c.Token, access, via, wantAccess, wantVia, body)
		}
		// The group that decided disallows wantPath and nothing else
		// ("*": everything).
		for _, p := range []string{"/named", "/fallback", "/second", "/star"} {
			v, via := file.MatchCrawler("http://example.com"+p, c)
			if via != wantVia {
				t.Errorf("%s %s: MatchCrawler via %v, want %v", c.Token, p, via, wantVia)
			}
			if v.Allowed != (p != wantPath && wantPath != "*") {
				t.Errorf("%s %s: allowed=%v, want the group of %q to decide\nrobots.txt:\n%s", c.Token, p, v.Allowed, wantPath, body)
			}
		}
	}

	// Named beats fallback, whatever the order of the groups.
	f("user-agent: googlebot\ndisallow: /fallback\n\nuser-agent: googlebot-image\ndisallow: /named\n\nuser-agent: *\ndisallow: /star\n",
		image, AccessPartial, ViaNamed, "/named")
	// A fallback beats '*': the spec's "Googlebot Images" example.
	f("user-agent: googlebot-news\ndisallow: /group1\n\nuser-agent: *\ndisallow: /star\n\nuser-agent: googlebot\ndisallow: /fallback\n",
		image, AccessPartial, ViaFallback, "/fallback")
	// The first fallback that is named wins; the later one is ignored.
	f("user-agent: googlebot\ndisallow: /second\n\nuser-agent: foobot\ndisallow: /fallback\n\nuser-agent: *\ndisallow: /star\n",
		chain, AccessPartial, ViaFallback, "/fallback")
	// A later fallback when the first is not named.
	f("user-agent: googlebot\ndisallow: /second\n\nuser-agent: *\ndisallow: /star\n",
		chain, AccessPartial, ViaFallback, "/second")
	// '*' only when no token is named.
	f("user-agent: bingbot\ndisallow: /named\n\nuser-agent: *\ndisallow: /star\n",
		image, AccessPartial, ViaStar, "/star")
	// No group applies: no token named and no '*' group.
	f("user-agent: bingbot\ndisallow: /\n", image, AccessAllowed, ViaNone, "")
	f("", image, AccessAllowed, ViaNone, "")
	// A crawler without fallbacks never takes another token's group.
	f("user-agent: googlebot\ndisallow: /fallback\n\nuser-agent: *\ndisallow: /star\n",
		plain, AccessPartial, ViaStar, "/star")
	f("user-agent: gptbot\ndisallow: /named\n\nuser-agent: *\ndisallow: /star\n",
		plain, AccessPartial, ViaNamed, "/named")
	// An empty group that names the crawler still decides: it allows all.
	// (It comes last: Google would merge it with a user-agent line below.)
	f("user-agent: googlebot\ndisallow: /fallback\n\nuser-agent: googlebot-image\n",
		image, AccessAllowed, ViaNamed, "")
	// A fallback that disallows everything.
	f("user-agent: googlebot\ndisallow: /\n\nuser-agent: *\nallow: /\n",
		image, AccessDisallowed, ViaFallback, "*")
}

// The status decides when crawlers ignore the body: no group applies.
func TestCrawlerAccessViaStatus(t *testing.T) {
	image := crawlerNamed(t, "Googlebot-Image")
	body := []byte("user-agent: googlebot\ndisallow: /\n")
	for _, c := range []struct {
		status int
		want   Access
	}{{503, AccessDisallowed}, {429, AccessDisallowed}, {404, AccessAllowed}, {301, AccessAllowed}} {
		f := ParseResponse(Response{Status: c.status}, body)
		if a, via := f.CrawlerAccess(image); a != c.want || via != ViaNone {
			t.Errorf("status %d: %v, %v; want %v, none", c.status, a, via, c.want)
		}
	}
	f := ParseResponse(Response{Status: 200}, body)
	if a, via := f.CrawlerAccess(image); a != AccessDisallowed || via != ViaFallback {
		t.Errorf("status 200: %v, %v; want disallowed, fallback", a, via)
	}
}

// The documented fallbacks of the tracked list, against the files their
// operators describe.
func TestTrackedFallbacks(t *testing.T) {
	f := func(token, body string, want Via) {
		t.Helper()
		if _, via := ParseString(body).CrawlerAccess(crawlerNamed(t, token)); via != want {
			t.Errorf("%s: via %v, want %v\nrobots.txt:\n%s", token, via, want, body)
		}
	}
	const googlebot = "user-agent: Googlebot\ndisallow: /\n\nuser-agent: *\nallow: /\n"
	f("Googlebot-Image", googlebot, ViaFallback)
	f("Googlebot-News", googlebot, ViaFallback)
	f("Applebot", googlebot, ViaFallback)
	f("Applebot", "user-agent: Applebot\ndisallow: /private/\n\nuser-agent: Googlebot\ndisallow: /\n", ViaNamed)
	f("Googlebot", googlebot, ViaNamed)
	f("Bingbot", googlebot, ViaStar)
	f("YandexBot", "User-agent: Yandex\nDisallow: /*sid=\n\nUser-agent: *\nDisallow: /cgi-bin\n", ViaFallback)
	f("YandexBot", "User-agent: YandexBot\nDisallow: /*id=\n\nUser-agent: Yandex\nDisallow: /*sid=\n", ViaNamed)
	f("GoogleOther-Image", "user-agent: GoogleOther\ndisallow: /\n", ViaFallback)
	// Control tokens with no documented fallback.
	f("Google-Extended", googlebot, ViaStar)
	f("Applebot-Extended", "user-agent: Applebot\ndisallow: /\n\nuser-agent: *\nallow: /\n", ViaStar)

	for _, c := range TrackedCrawlers() {
		tokens := c.Tokens()
		if tokens[0] != c.MatchToken() || len(tokens) != 1+len(c.Fallbacks) {
			t.Errorf("%s: Tokens() = %q", c.Token, tokens)
		}
		for _, fb := range c.Fallbacks {
			if !ValidAgent(fb) || equalFoldASCII(fb, c.Token) {
				t.Errorf("%s: fallback %q is not a product token of another crawler", c.Token, fb)
			}
		}
	}
}

// For a crawler without fallbacks, CrawlerAccess is Access of its token when
// a group names it, and of '*' otherwise: the agents table's verdicts before
// fallbacks existed.
func TestCrawlerAccessWithoutFallbacks(t *testing.T) {
	bodies := []string{
		"",
		"user-agent: *\ndisallow: /\n",
		"user-agent: GPTBot\nuser-agent: CCBot\ndisallow: /\n\nuser-agent: *\ndisallow: /private\n",
		"user-agent: Ai2Bot-Dolma\nallow: /\ndisallow: /x\n\nuser-agent: *\ndisallow: /\n",
		"user-agent: googlebot\ndisallow: /\n",
	}
	for _, b := range bodies {
		file := ParseString(b)
		for _, c := range TrackedCrawlers() {
			if len(c.Fallbacks) > 0 {
				continue
			}
			want := file.Access()
			if file.Names(c.MatchToken()) {
				want = file.Access(c.MatchToken())
			}
			if got, _ := file.CrawlerAccess(c); got != want {
				t.Errorf("%s: %v, want %v\nrobots.txt:\n%s", c.Token, got, want, b)
			}
		}
	}
}
