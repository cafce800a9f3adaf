package robots

import (
	"slices"
	"strings"
)

// VerdictSource says which lines of a file decide that a crawler is shut
// out of the whole site.
type VerdictSource uint8

const (
	// SourceNone: the crawler is not shut out of the whole site.
	SourceNone VerdictSource = iota
	// SourceTemplate: the template lines alone shut it out; the site's
	// own lines alone would not.
	SourceTemplate
	// SourceSite: the site's own lines alone shut it out; the template
	// lines alone would not (or the file has no template).
	SourceSite
	// SourceBoth: each alone shuts it out, or only the two together do.
	SourceBoth
)

// String returns "none", "template", "site" or "both".
func (s VerdictSource) String() string {
	return [...]string{"none", "template", "site", "both"}[s]
}

// Attribution says where a crawler's verdict for the whole site comes
// from: the file as a whole, its template lines alone (the lines of its
// [TemplateBlock]s but their SiteLines) and its own lines alone (all the
// others), each read as a robots.txt of its own, with Google's rules. The
// two halves keep their lines' numbers, and the site's lines inside a
// template's group keep the group's user-agent lines; a site line that
// continues a template's group from outside the block (a rule right after
// a marked block, with no user-agent line of its own) is read alone as a
// rule outside any group, which Google ignores.
type Attribution struct {
	Crawler  string // the crawler's token
	Access   Access // the file's verdict, as [File.CrawlerAccess]
	Template Access // the verdict of the template lines alone
	Site     Access // the verdict of the site's own lines alone
	// Source says who shuts the crawler out when Access is
	// AccessDisallowed; SourceNone otherwise.
	Source VerdictSource
	// Cancelled: the template lines alone shut the crawler out and the
	// file does not: the site's own lines undo the template's block (a
	// group naming the crawler is merged with the template's, and its
	// Allow: / is as long as the template's Disallow: /).
	Cancelled bool
}

// Attribute returns the attribution of each crawler's verdict. It parses
// the template lines and the site's lines once each (not at all for a file
// without template blocks, whose verdicts are all the site's).
func (f *File) Attribute(crawlers []Crawler) []Attribution {
	out := make([]Attribution, len(crawlers))
	if len(f.templates) == 0 {
		for i, c := range crawlers {
			a, _ := f.CrawlerAccess(c)
			out[i] = attribution(c.Token, a, AccessAllowed, a)
		}
		return out
	}
	tmpl, site := f.splitTemplates()
	for i, c := range crawlers {
		a, _ := f.CrawlerAccess(c)
		t, _ := tmpl.CrawlerAccess(c)
		s, _ := site.CrawlerAccess(c)
		out[i] = attribution(c.Token, a, t, s)
	}
	return out
}

// FileSource sums up the attributions of a file's crawlers, as the
// dataset stores it per capture: SourceTemplate when every crawler shut
// out is shut out by the template lines alone, SourceSite when every one
// by the site's own lines alone, SourceBoth when they are mixed or any
// needs both, SourceNone when no crawler is shut out.
func FileSource(as []Attribution) VerdictSource {
	out := SourceNone
	for _, a := range as {
		switch {
		case a.Source == SourceNone:
		case out == SourceNone:
			out = a.Source
		case out != a.Source:
			return SourceBoth
		}
	}
	return out
}

// attribution combines the three verdicts.
func attribution(token string, all, tmpl, site Access) Attribution {
	a := Attribution{Crawler: token, Access: all, Template: tmpl, Site: site}
	switch {
	case all != AccessDisallowed:
		a.Cancelled = tmpl == AccessDisallowed
	case tmpl == AccessDisallowed && site != AccessDisallowed:
		a.Source = SourceTemplate
	case site == AccessDisallowed && tmpl != AccessDisallowed:
		a.Source = SourceSite
	default:
		a.Source = SourceBoth
	}
	return a
}

// splitTemplates parses the file's template lines and its own lines as
// two files, each line kept at its number (the other lines left blank).
// The user-agent lines of a template's group that holds lines of the
// site's are in both: the site's rules keep their group.
func (f *File) splitTemplates() (tmpl, site *File) {
	shared := f.sharedAgentLines()
	var t, s strings.Builder
	t.Grow(len(f.text))
	s.Grow(len(f.text))
	for i := range f.lines {
		l := f.line(i)
		if i > 0 {
			t.WriteByte('\n')
			s.WriteByte('\n')
		}
		n := i + 1
		switch {
		case slices.Contains(shared, n):
			t.WriteString(l)
			s.WriteString(l)
		case f.inTemplate(n):
			t.WriteString(l)
		default:
			s.WriteString(l)
		}
	}
	return parseWithoutTemplates(t.String()), parseWithoutTemplates(s.String())
}

// sharedAgentLines returns the template's user-agent lines of the
// template blocks' groups that hold one of the blocks' SiteLines.
func (f *File) sharedAgentLines() []int {
	var out []int
	for i := range f.templates {
		b := &f.templates[i]
		if len(b.SiteLines) == 0 {
			continue
		}
		for _, gi := range b.Groups {
			g := &f.Groups[gi]
			end := f.groupEnd(g)
			if !slices.ContainsFunc(b.SiteLines, func(n int) bool { return g.Line <= n && n <= end }) {
				continue
			}
			for _, a := range g.Agents(f) {
				if b.TemplateLine(a.Line) {
					out = append(out, a.Line)
				}
			}
		}
	}
	return out
}

// inTemplate reports whether line n is a template's (see
// TemplateBlock.TemplateLine).
func (f *File) inTemplate(n int) bool {
	for i := range f.templates {
		if f.templates[i].TemplateLine(n) {
			return true
		}
	}
	return false
}

// reportTemplates adds the diagnostics of the template blocks: one
// TemplateFound finding each, TemplateListOutdated for a block list older than
// the newest release, and TemplateBlockCancelled where the site's own
// lines re-allow a crawler a template shuts out.
func (p *parser) reportTemplates() {
	f := p.f
	var agents []string // the crawlers the templates shut out
	for i := range f.templates {
		b := &f.templates[i]
		p.addTemplate(TemplateFound, b.Start, b.Key(), b.End, b.State.String())
		t := b.Template()
		if b.Name == TemplateAIRobots {
			for _, a := range f.Groups[b.Groups[0]].Agents(f) {
				agents = append(agents, a.Value(f))
			}
			if len(b.Missing) > 0 {
				p.addTemplate(TemplateListOutdated, b.Start, b.Version, 0, strings.Join(b.Missing, ", "))
			}
			continue
		}
		agents = append(agents, t.Agents...)
	}
	if len(agents) > 0 {
		p.cancelledBlocks(agents)
	}
}

// addTemplate adds a finding of a template code on line n, whose message
// reads arg, ref and refArg (see the catalogue).
func (p *parser) addTemplate(c Code, n int, arg string, ref int, refArg string) {
	p.add(n, c, p.f.line(n-1), arg)
	d := &p.f.Diagnostics[len(p.f.Diagnostics)-1]
	d.refer(ref, p.f.spanIn(p.f.lineText(ref), refArg))
}

// cancelledBlocks reports, for each crawler the templates shut out and
// the file does not, the site's group that re-allows it.
func (p *parser) cancelledBlocks(agents []string) {
	f := p.f
	tmpl, _ := f.splitTemplates()
	seen := map[string]bool{}
	for _, a := range agents {
		token := ExtractAgentToken(a)
		key := strings.ToLower(token)
		if token == "" || seen[key] {
			continue
		}
		seen[key] = true
		if tmpl.Access(token) != AccessDisallowed || f.Access(token) == AccessDisallowed {
			continue
		}
		line, value := f.siteGroupNaming(token)
		if line == 0 {
			continue
		}
		p.addTemplate(TemplateBlockCancelled, line, value, f.templateShutting(tmpl, token), "")
	}
}

// siteGroupNaming returns the user-agent line of the first group outside
// the templates that names token, and the agent as written there.
func (f *File) siteGroupNaming(token string) (int, string) {
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents(f) {
			if !f.inTemplate(a.Line) && strings.EqualFold(a.Token(f), token) {
				return a.Line, a.Value(f)
			}
		}
	}
	return 0, ""
}

// templateShutting returns the first line of the template block whose
// group shuts token out.
func (f *File) templateShutting(tmpl *File, token string) int {
	for gi := range tmpl.Groups {
		for _, a := range tmpl.Groups[gi].Agents(tmpl) {
			if strings.EqualFold(a.Token(tmpl), token) {
				for i := range f.templates {
					if f.templates[i].Contains(a.Line) {
						return f.templates[i].Start
					}
				}
			}
		}
	}
	return 0
}

// templateMessage is the message of a TemplateFound finding: the block's
// template and version, its lines and its state.
func templateMessage(m message, key string) message {
	t, ok := LookupTemplate(key)
	if !ok {
		return m.add("lines ").int(m.line).add("-").int(m.ref).add(" are a template (").add(key).add(")")
	}
	if m.ref == m.line {
		m = m.add("line ").int(m.line).add(" is ")
	} else {
		m = m.add("lines ").int(m.line).add("-").int(m.ref).add(" are ")
	}
	m = m.add(t.Title).add(", version ").add(t.Version)
	if t.Date != "" {
		m = m.add(" (").add(t.Date).add(")")
	}
	return m.add(", ").add(m.refArg)
}

// outdatedMessage is the message of a TemplateListOutdated finding; its
// refArg lists the crawlers the newest release adds, ", " between them.
func outdatedMessage(m message, tag string) message {
	rs := aiRobots.releases
	newest := rs[len(rs)-1]
	m = m.add("this block list is nearest to ai.robots.txt ").add(tag)
	for _, r := range rs {
		if r.Tag == tag {
			m = m.add(" (").add(r.Date).add(")")
			break
		}
	}
	names := m.refArg
	count := strings.Count(names, ", ") + 1
	m = m.add("; the newest release, ").add(newest.Tag).add(" (").add(newest.Date).add("), also shuts out ").int(count).add(" crawlers it does not name: ")
	const shown = 8
	if count <= shown {
		return m.add(names)
	}
	cut := 0
	for range shown {
		cut += strings.Index(names[cut:], ", ") + len(", ")
	}
	return m.add(names[:cut-len(", ")]).add(" and ").int(count - shown).add(" more")
}

// cancelledMessage is the message of a TemplateBlockCancelled finding.
func cancelledMessage(m message, agent string) message {
	return m.add("this group re-allows ").add(agent).add(", which the template block on line ").int(m.ref).
		add(" shuts out: Google merges the groups that name a crawler and an allow as long as the disallow wins, so ").
		add(agent).add(" may crawl the site")
}
