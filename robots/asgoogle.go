package robots

import "strings"

// ReadsAsGoogle reports whether reading s of f gives every crawler that
// AgentsReadAsGoogle accepts, asked by its product token (as Google's cut
// gives it), for every path of the bytes googleAlikeByte allows other than
// '*' and '$' (the root among them) except /robots.txt, the verdict
// Google's reading gives it, so that a census may skip building and asking
// that reading.
// It answers for rfc9309 and crawler-commons, and only for files without
// a line on which their doc comments name a difference from Google:
//
//   - the status is 2xx (or none): no status reads differently;
//   - the text is plain (printable ASCII, tabs, CR and LF), has no byte
//     order mark and no '<' (crawler-commons' HTML page), and every line
//     is empty, a comment, a sitemap line or a user-agent, allow or
//     disallow line spelt in full with its colon (no misspelt key, no
//     crawl-delay: lineClass);
//   - no user-agent value is Google's '*' without being '*' alone ("* x"):
//     the other readings take it for a name; which crawlers the others
//     name is AgentsReadAsGoogle's question;
//   - every rule value is empty or starts with '/', holds only bytes no
//     reading encodes or decodes (googleAlikeByte), '$' only at its end,
//     and neither "index.htm" (Google's and crawler-commons' leniencies)
//     nor "robots.txt" (always allowed for RFC 9309 and crawler-commons).
//
// It is false for the python readings and for Google's own, and the same
// for rfc9309 and crawler-commons (the lines above are those on which
// either may differ), so that a census asks it once a file.
// TestReadsAsGoogleOnCorpus proves it on the shared corpus.
func (f *File) ReadsAsGoogle(s Semantics) bool {
	if s != SemanticsRFC9309 && s != SemanticsCrawlerCommons {
		return false
	}
	if f.Response.bodyIgnored() || f.bom != 0 || f.hasLT {
		return false
	}
	if !f.asciiClassified() {
		return false
	}
	for i, l := range f.lines {
		switch l.class.kind() {
		case lineNone, lineOther:
		case lineUserAgent:
			if v := f.classValue(i); v != "*" && isGlobalAgent(v) {
				return false
			}
		case lineAllow, lineDisallow:
			if !googleAlikeRule(f.classValue(i)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// AgentsReadAsGoogle reports whether reading s of f (rfc9309 or
// crawler-commons) names agents, product tokens, by the user-agent values
// Google's reading names them by, so that, where ReadsAsGoogle holds, it
// gives them Google's verdicts. Google compares a value's token (its cut
// at the first byte outside [A-Za-z_-], Agent.Token). Crawler-commons
// names a crawler by a value equal to one of its names or, not a token as
// a whole, starting with one: for a product token, the same as Google's
// cut, so it is always true. RFC 9309 compares the whole value: it is
// true when no value that is not a token as a whole has one of agents as
// its token ("GPTBot/1.0" names GPTBot for Google alone).
func (f *File) AgentsReadAsGoogle(s Semantics, agents []string) bool {
	switch s {
	case SemanticsCrawlerCommons:
		return true
	case SemanticsRFC9309:
		for _, a := range f.agents {
			if a.Token(f) == a.Value(f) || a.Global {
				continue
			}
			for _, ua := range agents {
				if equalFoldASCII(a.Token(f), ua) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// googleAlikeRule reports whether rule value v reads alike for Google,
// RFC 9309 and crawler-commons (see ReadsAsGoogle).
func googleAlikeRule(v string) bool {
	if v == "" {
		return true
	}
	if v[0] != '/' || strings.Contains(v, "index.htm") || strings.Contains(v, "robots.txt") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !googleAlikeByte(c) || c == '$' && i != len(v)-1 {
			return false
		}
	}
	return true
}

// googleAlikeByte reports a byte that no reading encodes, decodes or
// normalises in a path or pattern: a letter, a digit, one of "-._~/",
// "!&'()+,;=:@?", and the wildcards '*' and '$'.
func googleAlikeByte(c byte) bool { return googleAlikeBytes[c] }

// googleAlikeBytes are the bytes googleAlikeByte reports, looked up in a
// table: ReadsAsGoogle asks it of every byte of every rule.
var googleAlikeBytes = func() (t [256]bool) {
	for c := range 256 {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			t[c] = true
		}
	}
	for _, c := range []byte("-._~/!&'()+,;=:@?*$") {
		t[c] = true
	}
	return t
}()
