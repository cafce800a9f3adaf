package robots

import (
	"slices"
	"strings"
)

// TemplateState says how a template block compares with the template's
// text.
type TemplateState uint8

const (
	// TemplateIntact: the block holds the template's directive lines and
	// nothing else (sitemap lines aside, which name the site).
	TemplateIntact TemplateState = iota + 1
	// TemplateEdited: lines of the template are changed or missing.
	TemplateEdited
	// TemplateExtended: all of the template's lines, and lines of the
	// site's among them (more agents in a block list, more rules in the
	// template's group).
	TemplateExtended
	// TemplateMarked: only the template's marker is known (Wix): its body
	// is not compared.
	TemplateMarked
)

// String returns "intact", "edited", "extended" or "marked".
func (s TemplateState) String() string {
	switch s {
	case TemplateIntact:
		return "intact"
	case TemplateEdited:
		return "edited"
	case TemplateExtended:
		return "extended"
	case TemplateMarked:
		return "marked"
	}
	return "unknown"
}

// TemplateBlock is one template block found in a file.
type TemplateBlock struct {
	Name    string // the template, as in the catalogue: "cloudflare-managed", ...
	Version string // its version: "2025-09", "5.5", "v1.32", ...
	// Start and End are the first and last lines of the block (1-based,
	// inclusive, numbered as in diagnostics).
	Start, End int
	// Extra are lines of the template outside Start..End: the sitemap
	// line WordPress writes at the end of the file; nil for most.
	Extra []int
	// SiteLines are the directive lines inside Start..End that are the
	// site's, not the template's: rules a site added to the template's
	// group or wrote into its marked block, agents added to a block
	// list; nil when there are none. A platform's whole-file default
	// (Shopify, Squarespace, Wix's "# By Wix") has none: which of its
	// lines a site changed is not told.
	SiteLines []int
	State     TemplateState
	// Groups are the indices in File.Groups of the groups that start in
	// the block.
	Groups []int
	// Similarity is, for a group of the ai.robots.txt list, the Jaccard
	// index of its agents and the release's (1 for an exact copy); 1 for
	// the other templates.
	Similarity float64
	// Missing are, for the ai.robots.txt list, the agents of the newest
	// release that the group does not name, in the release's order; nil
	// for the other templates.
	Missing []string

	tpl int // index in the catalogue (Templates), releases after numTemplates
}

// Key returns "name@version".
func (b *TemplateBlock) Key() string { return b.Name + "@" + b.Version }

// Template returns the block's catalogue entry.
func (b *TemplateBlock) Template() Template {
	if b.tpl >= numTemplates {
		return aiRobotsTemplate(b.tpl - numTemplates)
	}
	return templateCatalogue[b.tpl]
}

// Contains reports whether line n is one of the block's (in Start..End or
// Extra), the site's lines among them included.
func (b *TemplateBlock) Contains(n int) bool {
	return b.Start <= n && n <= b.End || slices.Contains(b.Extra, n)
}

// TemplateLine reports whether line n is the template's: one of the
// block's and not one of its SiteLines.
func (b *TemplateBlock) TemplateLine(n int) bool {
	return b.Contains(n) && !slices.Contains(b.SiteLines, n)
}

// Templates returns the template blocks recognised in the file, in line
// order; nil when there are none. The File owns the slice.
func (f *File) Templates() []TemplateBlock { return f.templates }

// Thresholds of the recognition of the ai.robots.txt list.
const (
	// minAIRobotsAgents: a group with fewer distinct agents is not
	// compared with the releases (the first release names 33).
	minAIRobotsAgents = 10
	// minAIRobotsJaccard: a group nearer than this to no release is not
	// claimed. Site-written lists of AI crawlers share well-known names
	// with every release: on the shared corpus those read by hand stay
	// under 0.65 (0.50 to 0.64: cnn.com, msn.com, omr.com,
	// courrierinternational.com), and the copies read by hand are at 0.76
	// and above.
	minAIRobotsJaccard = 0.7
)

// templates recognises the template blocks of the parsed file and
// reports them. It reads the parse's lines and groups: no second parse,
// and a file with no marker comment and no candidate group costs one pass
// over its lines' first bytes.
func (p *parser) templates() {
	f := p.f
	if len(f.lines) == 0 {
		return
	}
	var out []TemplateBlock
	out = f.markedTemplates(out, p.s.comments, p.firstContent)
	out = f.groupTemplates(out)
	if len(out) == 0 {
		return
	}
	slices.SortStableFunc(out, func(a, b TemplateBlock) int { return a.Start - b.Start })
	f.templates = out
	p.reportTemplates()
}

// minMarkerBytes is the length of the shortest marker line ("# By Wix").
const minMarkerBytes = len(wixTop)

// noteForTemplates notes, as the parse meets them, what recognition needs
// of the lines: the first that is not blank and the comment lines long
// enough to be a marker. It costs two comparisons a line.
func (p *parser) noteForTemplates(l *Line) {
	if l.Kind == LineEmpty {
		return
	}
	if p.firstContent == 0 {
		p.firstContent = l.Number
	}
	if l.Kind == LineComment && len(l.Text) >= minMarkerBytes && l.Text[0] == '#' {
		p.s.comments = append(p.s.comments, int32(l.Number))
	}
}

// markedTemplates appends the blocks that comment lines mark: the comment
// lines the parse noted, each compared by length with each marker first.
// The platforms' first lines count only as the first line of the file that
// is not blank.
func (f *File) markedTemplates(out []TemplateBlock, comments []int32, firstContent int) []TemplateBlock {
	for _, c := range comments {
		n := int(c)
		t, first := trimSpace(f.line(n-1)), n == firstContent
		switch {
		case eqFold(t, cfBegin):
			out = append(out, f.cloudflareBlock(n))
		case eqFold(t, cfPolicyMarker):
			out = append(out, f.policyBlock(n))
		case eqFold(t, yoastBegin):
			out = append(out, f.markedBlock(tplYoast, n, yoastEnd, sameLine))
		case eqFold(t, yoastSearchBegin):
			out = append(out, f.markedBlock(tplYoastSearch, n, yoastSearchEnd, sameLine))
		case eqFold(t, wpformsBegin):
			out = append(out, f.wpformsBlock(n))
		case first && eqFold(t, shopifyFirst):
			out = append(out, f.platformBlock(tplShopify, n))
		case first && eqFold(t, squarespaceTop):
			out = append(out, f.platformBlock(tplSquarespace, n))
		case first && eqFold(t, wixTop):
			b := f.wholeFile(tplWix, n)
			b.State = TemplateMarked
			out = append(out, b)
		}
	}
	return out
}

// lineIs reports whether line is text, ignoring ASCII case and white
// space around it.
func lineIs(line, text string) bool { return eqFold(trimSpace(line), text) }

// eqFold reports whether s is text, ignoring ASCII case. It allocates
// nothing and looks no further than the lengths when they differ: it runs
// on comment lines.
func eqFold(s, text string) bool {
	if len(s) != len(text) {
		return false
	}
	for i := 0; i < len(text); i++ {
		if lowerByte(s[i]) != lowerByte(text[i]) {
			return false
		}
	}
	return true
}

// lowerByte is c in lower case when it is an ASCII letter.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// block returns a block of catalogue entry tpl over lines start..end.
func (f *File) block(tpl, start, end int) TemplateBlock {
	t := &templateCatalogue[tpl]
	b := TemplateBlock{Name: t.Name, Version: t.Version, Start: start, End: end, Similarity: 1, tpl: tpl}
	for gi := range f.Groups {
		if g := f.Groups[gi].Line; start <= g && g <= end {
			b.Groups = append(b.Groups, gi)
		}
	}
	return b
}

// findLine returns the number of the first line from line n on that is
// text, or 0.
func (f *File) findLine(n int, text string) int {
	for i := n - 1; i < len(f.lines); i++ {
		if lineIs(f.line(i), text) {
			return i + 1
		}
	}
	return 0
}

// markedBlock is the block of entry tpl from its begin marker on line n to
// its end marker (to the end of the file, edited, when it has none).
func (f *File) markedBlock(tpl, n int, end string, same func(got, want string) bool) TemplateBlock {
	e := f.findLine(n+1, end)
	b := f.block(tpl, n, e)
	if e == 0 {
		b = f.wholeFile(tpl, n)
	}
	b.State = compareRules(f.directives(n, b.End), tpl, same)
	b.SiteLines = f.siteLines(n, b.End, ruleSet(tpl, same))
	if e == 0 {
		b.State = TemplateEdited
	}
	return b
}

// cloudflareBlock is Cloudflare's managed block from its begin marker on
// line n; its Content-signal line tells the version.
func (f *File) cloudflareBlock(n int) TemplateBlock {
	tpl := tplCloudflare2507
	last := f.findLine(n+1, cfEnd)
	if last == 0 {
		last = f.Stats.Lines
	}
	for i := n; i < last; i++ {
		if c := classify(0, f.line(i), false); c.Kind == LineDirective && strings.EqualFold(c.KeyText, "content-signal") {
			tpl = tplCloudflare2509
			if strings.Contains(strings.ToLower(c.Value), "use=") {
				tpl = tplCloudflare2607
			}
			break
		}
	}
	return f.markedBlock(tpl, n, cfEnd, sameLine)
}

// policyBlock is Cloudflare's Content Signals Policy around its marker on
// line n: from its first line (at most 40 lines before) to its last (at
// most 3 after). It is intact when both are there.
func (f *File) policyBlock(n int) TemplateBlock {
	start, end := n, n
	for i := n - 1; i >= max(1, n-40); i-- {
		if hasPrefixFold(trimSpace(f.line(i-1)), strings.ToLower(cfPolicyFirst)) {
			start = i
			break
		}
	}
	for i := n + 1; i <= min(len(f.lines), n+3); i++ {
		if lineIs(f.line(i-1), cfPolicyLast) {
			end = i
			break
		}
	}
	tpl := tplCloudflarePolicy2509
	for i := start - 1; i < end; i++ {
		if hasPrefixFold(trimSpace(f.line(i)), cfPolicyUse) {
			tpl = tplCloudflarePolicy2607
		}
	}
	b := f.block(tpl, start, end)
	b.State = TemplateIntact
	if start == n || end == n {
		b.State = TemplateEdited
	}
	return b
}

// wpformsBlock is WPForms's marked block from line n; a Disallow that
// names the uploads folder by URL is the "url" version.
func (f *File) wpformsBlock(n int) TemplateBlock {
	b := f.markedBlock(tplWPForms, n, wpformsEnd, sameWPForms)
	for _, d := range f.directives(n, b.End) {
		if strings.HasPrefix(d, "disallow:http") {
			return f.markedBlock(tplWPFormsURL, n, wpformsEnd, sameWPForms)
		}
	}
	return b
}

// sameWPForms is sameLine where any Disallow of a wpforms folder of the
// uploads (a multisite's /wp-content/uploads/sites/N/wpforms/, a whole
// URL) is the template's.
func sameWPForms(got, want string) bool {
	const d = "disallow:"
	if got == want {
		return true
	}
	return strings.HasPrefix(got, d) && strings.HasPrefix(want, d) &&
		strings.HasSuffix(got, "/wpforms/") && strings.Contains(got, "/wp-content/uploads/")
}

// wholeFile is the block of entry tpl from line n to the end of the file.
func (f *File) wholeFile(tpl, n int) TemplateBlock {
	return f.block(tpl, n, max(n, f.Stats.Lines))
}

// platformBlock is a hosting platform's default file (Shopify,
// Squarespace) from its first comment line n to the end of the file: the
// version is told by the first group (Squarespace stacks AI crawlers with
// *, or, earlier, gave each crawler a group; Shopify's current version has
// /checkouts/ and sort_by rules), and the file is intact when that group
// holds the version's rules.
func (f *File) platformBlock(tpl, n int) TemplateBlock {
	g := f.firstGroupAfter(n)
	switch {
	case g == nil:
	case tpl == tplSquarespace && len(g.Agents(f)) > 1 && g.Global:
		tpl = tplSquarespaceAI
	case tpl == tplSquarespace && !g.Global && len(g.Rules(f)) == 1 && g.Rules(f)[0].Value(f) == "/":
		tpl = tplSquarespaceAIGroup
	case tpl == tplSquarespace && !g.Global:
		tpl = tplSquarespacePerAgent
	case tpl == tplSquarespace && !f.holdsRules(g, []string{"Disallow: /search"}):
		tpl = tplSquarespaceEarly
	case tpl == tplShopify && !f.holdsRules(g, []string{"Disallow: /checkouts/", "Disallow: /collections/*sort_by*"}):
		tpl = tplShopifyEarly
	}
	b := f.wholeFile(tpl, n)
	b.State = TemplateEdited
	if tpl == tplSquarespaceAIGroup {
		g = f.firstGroupAfter(f.groupEnd(g))
		if g != nil && g.Global && f.holdsRules(g, templateCatalogue[tplSquarespace].Rules[1:]) {
			b.State = TemplateIntact
		}
		return b
	}
	if g != nil && f.holdsRules(g, templateCatalogue[tpl].Rules[1:]) {
		b.State = TemplateIntact
	}
	return b
}

// firstGroupAfter returns the first group starting after line n, or nil.
func (f *File) firstGroupAfter(n int) *Group {
	for gi := range f.Groups {
		if f.Groups[gi].Line > n {
			return &f.Groups[gi]
		}
	}
	return nil
}

// holdsRules reports whether the group has a rule for each of the
// directive lines want ("Disallow: /x").
func (f *File) holdsRules(g *Group, want []string) bool {
	for _, w := range want {
		d, v, _ := strings.Cut(w, ":")
		dir := Disallow
		if strings.EqualFold(d, "allow") {
			dir = Allow
		}
		if !f.hasRule(g, dir, trimSpace(v)) {
			return false
		}
	}
	return true
}

// hasRule reports whether the group has a rule of directive d with value v.
func (f *File) hasRule(g *Group, d Directive, v string) bool {
	rules := g.Rules(f)
	for ri := range rules {
		if r := &rules[ri]; r.Directive == d && r.Value(f) == v {
			return true
		}
	}
	return false
}

// directives returns the directive lines of lines start..end, each as
// "key:value" with the key in lower case (canonical for the keys Google
// knows), sitemap lines left out.
func (f *File) directives(start, end int) []string {
	var out []string
	for i := start; i <= end && i <= len(f.lines); i++ {
		l := classify(i, f.line(i-1), false)
		if l.Kind != LineDirective || l.Key == KeySitemap {
			continue
		}
		out = append(out, normalDirective(&l))
	}
	return out
}

// siteLines returns the directive lines of start..end (sitemap lines
// aside, which name the site whoever wrote them) that isTemplate does not
// claim.
func (f *File) siteLines(start, end int, isTemplate func(l *Line) bool) []int {
	var out []int
	for i := start; i <= end && i <= len(f.lines); i++ {
		l := classify(i, f.line(i-1), false)
		if l.Kind == LineDirective && l.Key != KeySitemap && !isTemplate(&l) {
			out = append(out, i)
		}
	}
	return out
}

// normalRules are the Rules of each catalogue entry as normalDirective
// writes them, made once.
var normalRules = func() (out [numTemplates][]string) {
	for i := range templateCatalogue {
		for _, r := range templateCatalogue[i].Rules {
			l := classify(0, r, false)
			out[i] = append(out[i], normalDirective(&l))
		}
	}
	return out
}()

// ruleSet returns whether a line is one of entry tpl's rules, compared
// with same.
func ruleSet(tpl int, same func(got, want string) bool) func(*Line) bool {
	want := normalRules[tpl]
	return func(l *Line) bool {
		got := normalDirective(l)
		return slices.ContainsFunc(want, func(w string) bool { return same(got, w) })
	}
}

// normalDirective is l as "key:value", the key in lower case.
func normalDirective(l *Line) string {
	key := strings.ToLower(l.KeyText)
	if l.Key != KeyUnknown {
		key = l.Key.String()
	}
	return key + ":" + l.Value
}

// sameLine reports whether a directive of the file is the template's.
func sameLine(got, want string) bool { return got == want }

// compareRules compares a block's directives with the lines of catalogue
// entry tpl: intact when they are the same lines in
// the same order, extended when the template's are among them in order,
// edited otherwise.
func compareRules(got []string, tpl int, same func(got, want string) bool) TemplateState {
	want := normalRules[tpl]
	j := 0
	for _, g := range got {
		if j < len(want) && same(g, want[j]) {
			j++
		}
	}
	switch {
	case j < len(want):
		return TemplateEdited
	case len(got) == len(want):
		return TemplateIntact
	}
	return TemplateExtended
}

// groupTemplates appends the templates recognised by their groups:
// WordPress's virtual file, Blogger's default and the ai.robots.txt list.
func (f *File) groupTemplates(out []TemplateBlock) []TemplateBlock {
	for gi := range f.Groups {
		g := &f.Groups[gi]
		switch {
		case g.Global && len(g.Rules(f)) >= 2:
			dis, allow, wix := f.starMarks(g)
			if b, ok := f.wordPressBlock(gi, dis, allow); ok {
				out = append(out, b)
			} else if wix { // Wix's block is looked for only where starMarks saw its path
				if b, ok := f.wixEditorBlock(gi); ok {
					out = append(out, b)
				}
			}
		case len(g.Agents(f)) == 1 && strings.EqualFold(g.Agents(f)[0].Value(f), "Mediapartners-Google"):
			if b, ok := f.bloggerBlock(gi); ok {
				out = append(out, b)
			}
		case len(g.Agents(f)) >= minAIRobotsAgents && !g.Global:
			if b, ok := f.aiRobotsBlock(gi); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// groupEnd returns the last line of group g, one of f's: its last
// rule's, or its last agent's.
func (f *File) groupEnd(g *Group) int {
	end := g.Line
	if n := len(g.Agents(f)); n > 0 {
		end = max(end, g.Agents(f)[n-1].Line)
	}
	if n := len(g.Rules(f)); n > 0 {
		end = max(end, g.Rules(f)[n-1].Line)
	}
	return end
}

// wordPressBlock recognises WordPress's virtual file in the * group gi,
// whose rules dis and allow starMarks found: Disallow: P/wp-admin/ and
// Allow: P/wp-admin/admin-ajax.php for one folder P. A sitemap line
// ending in /wp-sitemap.xml makes it version 5.5.
func (f *File) wordPressBlock(gi, dis, allow int) (TemplateBlock, bool) {
	g := &f.Groups[gi]
	if dis < 0 || allow < 0 || strings.TrimSuffix(g.Rules(f)[dis].Value(f), wpAdmin) != strings.TrimSuffix(g.Rules(f)[allow].Value(f), wpAjax) {
		return TemplateBlock{}, false
	}
	tpl := tplWordPress44
	var extra []int
	for _, s := range f.Sitemaps {
		if strings.HasSuffix(s.URL(f), "/wp-sitemap.xml") {
			tpl = tplWordPress55
			if s.Line > f.groupEnd(g) {
				extra = append(extra, s.Line)
			}
			break
		}
	}
	b := f.block(tpl, g.Line, f.groupEnd(g))
	b.Extra = extra
	dl, al := g.Rules(f)[dis].Line, g.Rules(f)[allow].Line
	b.SiteLines = f.siteLines(b.Start, b.End, func(l *Line) bool {
		return l.Key == KeyUserAgent || l.Number == dl || l.Number == al
	})
	b.State = TemplateIntact
	if len(g.Rules(f)) > 2 || len(g.Agents(f)) > 1 {
		b.State = TemplateExtended
	}
	return b, true
}

// WordPress's two rules end in these.
const wpAdmin, wpAjax = "/wp-admin/", "/wp-admin/admin-ajax.php"

// starMarks finds, in one pass over the rules of a * group, the first
// Disallow ending in /wp-admin/ and the first Allow ending in
// /wp-admin/admin-ajax.php (their indices, -1 when absent) and whether
// Wix's editor path /wixpress/ is disallowed.
func (f *File) starMarks(g *Group) (dis, allow int, wix bool) {
	dis, allow = -1, -1
	rules := g.Rules(f)
	for ri := range rules {
		r := &rules[ri]
		if int(r.value.end-r.value.start) < len(wpAdmin) {
			continue // not read: too short to end in either
		}
		v := r.Value(f)
		switch last := v[len(v)-1]; {
		case last == 'p':
			if r.Directive == Allow && allow < 0 && strings.HasSuffix(v, wpAjax) {
				allow = ri
			}
		case last != '/' || r.Directive != Disallow:
		case dis < 0 && strings.HasSuffix(v, wpAdmin):
			dis = ri
		case v == "/wixpress/":
			wix = true
		}
	}
	return dis, allow, wix
}

// bloggerBlock recognises Blogger's default in the Mediapartners-Google
// group gi with an empty Disallow, followed by a * group with Disallow:
// /search and Allow: /.
func (f *File) bloggerBlock(gi int) (TemplateBlock, bool) {
	g := &f.Groups[gi]
	if len(g.Rules(f)) != 1 || g.Rules(f)[0].Directive != Disallow || g.Rules(f)[0].Value(f) != "" || gi+1 >= len(f.Groups) {
		return TemplateBlock{}, false
	}
	star := &f.Groups[gi+1]
	if !star.Global || !f.holdsRules(star, []string{"Disallow: /search", "Allow: /"}) {
		return TemplateBlock{}, false
	}
	b := f.block(tplBlogger, g.Line, f.groupEnd(star))
	b.SiteLines = f.siteLines(b.Start, b.End, ruleSet(tplBlogger, sameLine))
	b.State = TemplateIntact
	if len(star.Rules(f)) > 2 || len(star.Agents(f)) > 1 {
		b.State = TemplateExtended
	}
	return b, true
}

// aiRobotsBlock recognises a release of the ai.robots.txt list in group
// gi: a group whose agents are near a release's. It is intact when it
// names the release's agents and has the one rule Disallow: /; edited
// when it lacks agents of the release or that rule.
func (f *File) aiRobotsBlock(gi int) (TemplateBlock, bool) {
	g := &f.Groups[gi]
	blocks := false
	rules := g.Rules(f)
	for ri := range rules {
		if r := &rules[ri]; r.Directive == Disallow && r.Value(f) == "/" {
			blocks = true
		}
	}
	m := aiRobots.nearest(f, g.Agents(f))
	if m.release < 0 || m.jaccard < minAIRobotsJaccard {
		return TemplateBlock{}, false
	}
	r := aiRobots.releases[m.release]
	b := TemplateBlock{Name: TemplateAIRobots, Version: r.Tag, Start: g.Line, End: f.groupEnd(g),
		Groups: []int{gi}, Similarity: m.jaccard, tpl: numTemplates + m.release}
	newest := len(aiRobots.releases) - 1
	b.Missing = aiRobots.missing(&m.known, newest)
	release := &aiRobots.sets[m.release]
	b.SiteLines = f.siteLines(b.Start, b.End, func(l *Line) bool {
		if l.Key == KeyUserAgent {
			n, ok := aiRobots.lookup(l.Value)
			return ok && release.has(n)
		}
		return l.Key == KeyDisallow && l.Value == "/"
	})
	lacks := len(aiRobots.missing(&m.known, m.release)) > 0
	switch {
	case m.jaccard == 1 && len(g.Rules(f)) == 1 && blocks:
		b.State = TemplateIntact
	case lacks || !blocks:
		b.State = TemplateEdited
	default:
		b.State = TemplateExtended
	}
	return b, true
}

// wixEditorBlock recognises Wix's default of the editor paths in the *
// group gi: a group with Disallow: /wixpress/ and Disallow: /wix-editor/.
func (f *File) wixEditorBlock(gi int) (TemplateBlock, bool) {
	g := &f.Groups[gi]
	if !f.hasRule(g, Disallow, "/wixpress/") || !f.hasRule(g, Disallow, "/wix-editor/") {
		return TemplateBlock{}, false
	}
	b := f.block(tplWixEditorPaths, g.Line, f.groupEnd(g))
	b.State = compareRules(f.directives(g.Line, b.End), tplWixEditorPaths, sameLine)
	b.SiteLines = f.siteLines(b.Start, b.End, ruleSet(tplWixEditorPaths, sameLine))
	return b, true
}
