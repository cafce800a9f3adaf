package robots

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// Allocations per parse grow with the rules of a file, not with its lines:
// comments, blank lines and unknown lines cost no allocation, and a match
// costs none at all.
func TestAllocationsBoundedByRules(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /a/\nDisallow: /b/\nAllow: /a/b/\nSitemap: https://e.com/s.xml\n"
	base := testing.AllocsPerRun(20, func() { ParseString(rules) })
	for _, filler := range []string{"# a comment line\n", "\n", "Crawl-delay: 1\n", "Noindex: /x/\n", "Frobnicate: 1\n"} {
		body := rules + strings.Repeat(filler, 5000)
		got := testing.AllocsPerRun(5, func() { ParseString(body) })
		// The diagnostics slice grows geometrically (doubling, then by
		// 1.25): about 20 more allocations for 5000 findings, not 5000.
		// Extension lines (crawl-delay, noindex) are data, recorded in
		// File.Extensions like rules: a second slice that grows the same
		// way.
		limit := base + 24
		if key, _, _ := strings.Cut(filler, ":"); lookupExtension(key) != nil {
			limit = base + 48
		}
		if got > limit {
			t.Errorf("5000 lines of %q: %.0f allocations, against %.0f for the rules alone", filler, got, base)
		}
	}
	f := ParseString(rules)
	if n := testing.AllocsPerRun(100, func() { f.Allowed("https://e.com/a/c?x", "Googlebot") }); n != 0 {
		t.Errorf("Allowed allocates %.0f times", n)
	}
	if base > 8 {
		t.Errorf("a 4-rule file costs %.0f allocations", base)
	}
}

// The word-at-a-time scans agree with byte-at-a-time loops.
func TestWordScans(t *testing.T) {
	slow := func(s string) (ctl int, nonASCII bool) {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c < 0x20 && (c < '\t' || c > '\r') || c == 0x7f {
				ctl++
			}
			nonASCII = nonASCII || c >= 0x80
		}
		return
	}
	var b strings.Builder
	for i := 0; i < 4096; i++ {
		b.WriteByte(byte(i*7919>>3) ^ byte(i))
	}
	all := b.String()
	for start := 0; start < 64; start++ {
		for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 100, 1024} {
			s := all[start : start+n]
			ctl, na := slow(s)
			if hasNonASCII(s) != na {
				t.Fatalf("hasNonASCII(%q) = %v", s, !na)
			}
			got := 0
			i := 0
			for ; i+8 <= len(s); i += 8 {
				c := countControl(s[i : i+8])
				if hasControl(load64(s[i:])) != (c > 0) {
					t.Fatalf("hasControl(%q) = %v with %d control bytes", s[i:i+8], c == 0, c)
				}
				got += c
			}
			if got+countControl(s[i:]) != ctl {
				t.Fatalf("control count of %q", s)
			}
		}
	}
}

func TestCrawlers(t *testing.T) {
	seen := map[string]bool{}
	ai, search := 0, 0
	for _, c := range TrackedCrawlers() {
		if c.Token == "" || seen[c.Token] {
			t.Errorf("empty or duplicate token %q", c.Token)
		}
		seen[c.Token] = true
		if c.Kind == CrawlerAI {
			ai++
		} else {
			search++
		}
	}
	if ai < 100 || search < 10 {
		t.Errorf("%d AI and %d search crawlers", ai, search)
	}
	f := ParseString("User-agent: Ai2Bot-Dolma\nUser-agent: GPTBot\nDisallow: /\n")
	for _, c := range TrackedCrawlers() {
		// Google cuts "Ai2Bot-Dolma" to "Ai", which also names AI2Bot's "AI".
		want := c.Token == "GPTBot" || strings.EqualFold(c.MatchToken(), "Ai")
		if got := f.Names(c.MatchToken()); got != want {
			t.Errorf("%s (%s): named=%v, want %v", c.Token, c.MatchToken(), got, want)
		}
	}
}

// Tokens are matched ignoring case, so the list holds each once.
func TestCrawlersUniqueIgnoringCase(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range TrackedCrawlers() {
		k := strings.ToLower(c.Token)
		if seen[k] {
			t.Errorf("%s listed twice", c.Token)
		}
		seen[k] = true
	}
}

// A Rule is 40 bytes on 64-bit machines (64 with its two strings, 48 with
// an int for its group and a 32-bit index length): a million rules are
// copied out of the scratch space on every pass over the corpus.
func TestRuleSize(t *testing.T) {
	if size := unsafe.Sizeof(Rule{}); unsafe.Sizeof(uintptr(0)) == 8 && size > 40 {
		t.Errorf("a Rule is %d bytes, want at most 40: keep its small fields together", size)
	}
}

// A pattern's index-prefix length is a uint16 (patternInfo.index): the
// longest pattern, the value of a line cut at MaxLineBytes whose bytes are
// all escaped, keeps Google's "index.htm" leniency: "Allow:
// /dir/index.html" allows "/dir/" too, and nothing else of "/dir/".
func TestLongestPatternKeepsIndexLeniency(t *testing.T) {
	const key = "Allow: "
	dir := "/" + strings.Repeat("\xe9", MaxLineBytes-len(key)-len("/")-len("/index.html"))
	line := key + dir + "/index.html"
	if len(line) != MaxLineBytes {
		t.Fatalf("the line is %d bytes, want MaxLineBytes", len(line))
	}
	f := ParseString("User-agent: *\nDisallow: /\n" + line + "\n")
	if len(f.Rules) != 2 {
		t.Fatalf("%d rules, want 2", len(f.Rules))
	}
	escaped := strings.ReplaceAll(dir, "\xe9", "%E9")
	if got, want := f.Rules[1].Pattern(f), escaped+"/index.html"; got != want {
		t.Fatalf("pattern of %d bytes, want %d", len(got), len(want))
	}
	if len(escaped) < 1<<15 {
		t.Fatalf("the escaped directory is %d bytes: too short to test a length past int16", len(escaped))
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{escaped + "/", true}, // the leniency
		{escaped + "/index.html", true},
		{escaped + "/other", false},
		{"/", false},
	} {
		if got := f.Allowed("http://e.com"+c.path, "Googlebot"); got != c.want {
			t.Errorf("a path of %d bytes (%.12q...): allowed %v, want %v", len(c.path), c.path, got, c.want)
		}
	}
}

// A Rule's value and pattern are read through its File: the value as
// written, a part of the text; the pattern the value itself unless
// escaping changes it, else a part of the File's escaped patterns. Neither
// makes a string, and matching reads the escaped pattern.
func TestRuleValueAndPattern(t *testing.T) {
	f := ParseString("User-agent: *\nDisallow: /plain\nAllow:   /caf\u00e9 # c\nDisallow: /a%2fb\nDisallow:\n Allow : /%7e$\nDisallow: /\xe9t\xe9\n")
	want := [][2]string{{"/plain", "/plain"}, {"/caf\u00e9", "/caf%C3%A9"}, {"/a%2fb", "/a%2Fb"}, {"", ""}, {"/%7e$", "/%7E$"}, {"/\xe9t\xe9", "/%E9t%E9"}}
	if len(f.Rules) != len(want) {
		t.Fatalf("%d rules, want %d", len(f.Rules), len(want))
	}
	for i, w := range want {
		r := &f.Rules[i]
		if v, p := r.Value(f), r.Pattern(f); v != w[0] || p != w[1] {
			t.Errorf("rule %d: value %q pattern %q, want %q %q", i, v, p, w[0], w[1])
		}
		if n := testing.AllocsPerRun(10, func() { _, _ = r.Value(f), r.Pattern(f) }); n != 0 {
			t.Errorf("rule %d: %v allocations to read its strings", i, n)
		}
	}
	for path, allowed := range map[string]bool{"/plain": false, "/caf%C3%A9": true, "/a%2Fb": false, "/a%2fb": true, "/%7E": true, "/%E9t%E9x": false, "/\xe9t\xe9": true} {
		if got := f.Allowed("http://e.com"+path, "bot"); got != allowed {
			t.Errorf("%s: allowed %v, want %v", path, got, allowed)
		}
	}
}

// A Group's agents and rules are parts of its File's, read through the
// File without allocating, with no room to append (an append to one must
// not overwrite the next group's).
func TestGroupAgentsAndRules(t *testing.T) {
	f := ParseString("User-agent: a\nUser-agent: b\nDisallow: /1\nAllow: /2\nUser-agent: c\nUser-agent: *\nDisallow: /3\n\nUser-agent: d\n")
	want := []struct {
		agents, rules string
		global        bool
	}{{"a b", "/1 /2", false}, {"c *", "/3", true}, {"d", "", false}}
	if len(f.Groups) != len(want) {
		t.Fatalf("%d groups, want %d", len(f.Groups), len(want))
	}
	for i, w := range want {
		g := &f.Groups[i]
		var agents, rules []string
		for _, a := range g.Agents(f) {
			agents = append(agents, a.Value(f))
		}
		for _, r := range g.Rules(f) {
			rules = append(rules, r.Value(f))
		}
		if got := [2]string{strings.Join(agents, " "), strings.Join(rules, " ")}; got != [2]string{w.agents, w.rules} || g.Global != w.global {
			t.Errorf("group %d: agents %q rules %q global %v, want %q %q %v", i, got[0], got[1], g.Global, w.agents, w.rules, w.global)
		}
		if a, r := g.Agents(f), g.Rules(f); cap(a) != len(a) || cap(r) != len(r) {
			t.Errorf("group %d: room to append (agents %d/%d, rules %d/%d)", i, len(a), cap(a), len(r), cap(r))
		}
		if n := testing.AllocsPerRun(10, func() { _, _ = g.Agents(f), g.Rules(f) }); n != 0 {
			t.Errorf("group %d: %v allocations to read its agents and rules", i, n)
		}
	}
	if size := unsafe.Sizeof(Group{}); unsafe.Sizeof(uintptr(0)) == 8 && size > 32 {
		t.Errorf("a Group is %d bytes, want at most 32 (64 with its two slices)", size)
	}
}

// An Agent's value and token are read through its File: the value as
// written, the token a prefix of it (Google's cut), "" for '*'; neither
// makes a string.
func TestAgentValueAndToken(t *testing.T) {
	f := ParseString("User-agent: Googlebot/2.1\nUser-agent:   *  # all\nuser-agent  bingbot\nUser-agent:\nUser-agent: *foo\nDisallow: /\n")
	want := [][2]string{{"Googlebot/2.1", "Googlebot"}, {"*", ""}, {"bingbot", "bingbot"}, {"", ""}, {"*foo", ""}}
	agents := f.Groups[0].Agents(f)
	if len(agents) != len(want) {
		t.Fatalf("%d agents, want %d", len(agents), len(want))
	}
	for i, w := range want {
		a := agents[i]
		if v, tok := a.Value(f), a.Token(f); v != w[0] || tok != w[1] {
			t.Errorf("agent %d: value %q token %q, want %q %q", i, v, tok, w[0], w[1])
		}
		if n := testing.AllocsPerRun(10, func() { _, _ = a.Value(f), a.Token(f) }); n != 0 {
			t.Errorf("agent %d: %v allocations to read its strings", i, n)
		}
	}
	if !f.Names("Googlebot") || !f.Names("BINGBOT") || f.Names("foo") {
		t.Errorf("Names: Googlebot %v, BINGBOT %v, foo %v; want true, true, false", f.Names("Googlebot"), f.Names("BINGBOT"), f.Names("foo"))
	}
}

// hasControl is exact on every byte value, in every position of a word
// of text bytes.
func TestMayHaveControlEveryByte(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			w := []byte("Allow: /")
			w[pos] = byte(c)
			if got, want := hasControl(load64(string(w))), countControl(string(w)) > 0; got != want {
				t.Errorf("byte %#x at %d: hasControl %v, want %v", c, pos, got, want)
			}
		}
	}
}

// Findings, rules, agents and groups hold no pointer (issue 33): a
// Diagnostic, Sitemap, Extension, Preference, Rule or Agent keeps offsets
// into its File's text, a Group index ranges of its File's agents and
// rules, so
// that the collector has nothing in them to scan and making one allocates
// nothing of its own. A Diagnostic is 32 bytes on 64-bit machines, from 72
// with its strings (its Ref a uint32): files of many findings (a wildcard,
// a redundant '*' and a non-ASCII path on every line) write and copy every
// one of them.
func TestFindingsHoldNoPointers(t *testing.T) {
	for _, v := range []any{Diagnostic{}, Sitemap{}, Extension{}, Preference{}, Rule{}, Agent{}, Group{}} {
		typ := reflect.TypeOf(v)
		if path, ok := pointerIn(typ); ok {
			t.Errorf("%s holds a pointer: %s", typ, path)
		}
	}
	if size := unsafe.Sizeof(Diagnostic{}); unsafe.Sizeof(uintptr(0)) == 8 && size > 32 {
		t.Errorf("a Diagnostic is %d bytes, want at most 32", size)
	}
}

// The scratch space of a parse is not cleared when it goes back to its pool
// (reuse): none of its slices' elements may hold a pointer, or a pooled
// scratch would keep the last file's memory alive.
func TestScratchHoldsNoPointers(t *testing.T) {
	typ := reflect.TypeOf(scratch{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Slice {
			continue
		}
		if path, ok := pointerIn(f.Type.Elem()); ok {
			t.Errorf("scratch.%s holds %s, whose %s is a pointer: reuse must clear it", f.Name, f.Type, path)
		}
	}
}

// pointerIn returns the path of a field of t that is or holds a pointer
// (a pointer, slice, string, map, chan, func or interface).
func pointerIn(t reflect.Type) (string, bool) {
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if path, ok := pointerIn(f.Type); ok {
				return strings.TrimSuffix(f.Name+"."+path, "."), true
			}
		}
		return "", false
	case reflect.Array:
		return pointerIn(t.Elem())
	case reflect.Pointer, reflect.UnsafePointer, reflect.Slice, reflect.String, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface:
		return t.String(), true
	}
	return "", false
}

// A diagnostic made by a parse allocates nothing: findings with a text
// argument cost no string, and a file of 5000 of them only the growth of
// its Diagnostics slice (see TestAllocationsBoundedByRules); formatting
// their messages into a reused buffer allocates nothing.
func TestAppendMessageAllocatesNothing(t *testing.T) {
	f := ParseString("User-agent: Googlebot/2.1\nDissallow: /a b\nDisallow: private/\nSitemap: /s.xml\nCrawl-delay: soon\n")
	if len(f.Diagnostics) < 5 {
		t.Fatalf("codes %v", codesOf(f))
	}
	buf := make([]byte, 0, 4096)
	n := testing.AllocsPerRun(100, func() {
		for _, d := range f.Diagnostics {
			buf = AppendMessage(buf[:0], f, d)
		}
	})
	if n != 0 {
		t.Errorf("AppendMessage allocates %.1f times for %d findings", n, len(f.Diagnostics))
	}
	for _, d := range f.Diagnostics {
		if got, want := string(AppendMessage(nil, f, d)), d.Message(f); got != want || got == "" {
			t.Errorf("%s: AppendMessage %q, Message %q", d.Code, got, want)
		}
	}
}

// looksLikeSeveralPaths, which finds the second word of a value without
// strings.Fields' list, reads values as strings.Fields splits them.
func TestLooksLikeSeveralPathsAsFields(t *testing.T) {
	byFields := func(v string) bool {
		words := strings.Fields(v)
		return len(words) >= 2 && (words[1][0] == '/' || words[1][0] == '*' || isURL(words[1]))
	}
	for _, v := range []string{"", "/a", "/a b", "/a /b", " /a\t/b ", "/a  *b", "/a\u00a0/b", "/a\u2003https://e.com/", "/a \xff/b", "/a b /c", "x\u0085/y", "/a ", "  ", "/a\v/b"} {
		if got, want := looksLikeSeveralPaths(v), byFields(v); got != want {
			t.Errorf("%q: %v, strings.Fields reads %v", v, got, want)
		}
	}
}

// TestSniffBinaryAfterPlainPrefix: sniffBinary told the text's plain
// prefix (which sniff finds first) gives the verdict it gives when it
// reads every byte, for texts whose odd bytes (DEL, which plain text may
// hold, other control bytes, NUL runs, U+FFFD, bytes outside ASCII) come
// at every place around the prefix's end and the window's; a plain text
// full of DEL is binary.
func TestSniffBinaryAfterPlainPrefix(t *testing.T) {
	base := strings.Repeat("Disallow: /a\n", 120) // 1560 bytes, over binaryWindow
	odd := []string{"\x7f", "\x7f\x7f\x7f", "\x01", "\x00\x00", "\uFFFD", "\u00e9", "\x0b"}
	binaries := 0
	for _, o := range odd {
		for _, at := range []int{0, 1, 7, 8, 9, 500, binaryWindow - 2, binaryWindow - 1, binaryWindow, 1500} {
			for _, every := range []int{1, 3, 9, 40} {
				var b strings.Builder
				b.WriteString(base[:at])
				for i := at; i < len(base); i++ {
					if (i-at)%every == 0 {
						b.WriteString(o)
					}
					b.WriteByte(base[i])
				}
				s := b.String()
				_, want := sniffBinary(s, 0)
				if _, got := sniffBinary(s, plainPrefix(s)); got != want {
					t.Fatalf("%q every %d bytes from %d: binary %v after the plain prefix, %v from the start", o, every, at, got, want)
				}
				binaries += btoi(want)
			}
		}
	}
	if binaries == 0 {
		t.Error("no text was binary: the comparison proves little")
	}
	if _, binary := sniffBinary(strings.Repeat("a\x7f", 300), plainPrefix(strings.Repeat("a\x7f", 300))); !binary {
		t.Error("a plain text full of DEL is not binary")
	}
	if codes := codesOf(ParseString("User-agent: *\nDisallow: /\n" + strings.Repeat("a\x7f", 300))); !slices.Contains(codes, "0:binary-content") {
		t.Errorf("a text full of DEL: %v, want binary-content", codes)
	}
}

// A parse grows its rules, findings and lines in a pooled scratch and the
// File keeps copies: what the File keeps must not change when the scratch
// goes to the next parse. The file escapes patterns (bytes outside ASCII,
// lower-case escapes) and lists files one by one in an escaped directory
// (a finding whose detail is made from a pattern); the files parsed after
// it escape other bytes, longer, with more rules and findings.
func TestFileOutlivesScratch(t *testing.T) {
	body := func(dir, extra string) string {
		var b strings.Builder
		b.WriteString("User-agent: *\nDisallow: /" + dir + "/\xff" + extra + "*\nAllow: /" + dir + "%2f" + extra + "\n")
		for i := range 2 * minFilesOneByOne {
			fmt.Fprintf(&b, "Disallow: /%s/%s%d.html\n", dir, extra, i)
		}
		return b.String()
	}
	dump := func(f *File) string {
		h := sha256.New()
		dumpFile(h, f)
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	f := ParseString(body("\u00fc", ""))
	if !slices.ContainsFunc(f.Diagnostics, func(d Diagnostic) bool { return d.Code == FilesListedOneByOne }) || !f.Rules[0].escaped {
		t.Fatalf("the file has no escaped pattern or no %s finding: the test tests nothing", FilesListedOneByOne)
	}
	want := dump(f)
	for i := range 50 {
		ParseString(body("\u00e9\u00e8", strings.Repeat("\u00e0", i)))
	}
	if got := dump(f); got != want {
		t.Errorf("the File changed when later files were parsed: its dump %s, was %s", got, want)
	}
	if got := dump(ParseString(body("\u00fc", ""))); got != want {
		t.Errorf("the same body parsed again dumps %s, the first parse %s", got, want)
	}
}

// A Parser's File is the Parser's own, and takes the scratch's slices
// instead of copies of them: a parse allocates what the File holds
// besides (its sitemaps, its escaped patterns), not the File, its rules,
// groups, agents, findings and line list, which Parse allocates one each.
// The slices end at their length: appending to one of a File does not
// write where the Parser's next parse writes.
func TestParserReusesStorage(t *testing.T) {
	body := "User-agent: *\nDisallow: /a/\nDisalow: /b/\nSitemap: /s.xml\n\nUser-agent: x\nAllow: /\xff\n"
	var ps Parser
	ps.ParseString(body) // grows the storage
	shared, own := testing.AllocsPerRun(50, func() { ps.ParseString(body) }), testing.AllocsPerRun(50, func() { ParseString(body) })
	if shared > 2 || own < shared+6 {
		t.Errorf("a parse allocates %v times through a Parser and %v through ParseString, want at most 2 and 6 fewer", shared, own)
	}

	f := ps.ParseString(body)
	added := f.Rules[0]
	rules := append(f.Rules, added)
	if g := ps.ParseString(strings.Repeat("User-agent: *\nDisallow: /other\n", 8)); g != f || len(g.Rules) != 8 {
		t.Fatalf("the Parser's next File is %p with %d rules, want the same File (%p) with 8", g, len(g.Rules), f)
	}
	if got := rules[len(rules)-1]; got != added {
		t.Errorf("the rule appended to a Parser's File is %+v after the next parse, was %+v", got, added)
	}
}
