package ingest

import (
	"strings"

	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// The census of parsers (issue 31): for each capture, tracked crawler and
// reading other than Google's (robots.File.As), whether that reading gives
// the crawler another verdict for the site root, or blocks it fully where
// Google does not (or the reverse). Each difference is a row of the
// readings table, with the difference class that explains it; a crawler
// without a row reads as Google reads it.
//
// The census asks only what it needs. Each reading is built once per
// capture, when first asked, and not at all where Google's reading gives
// its verdicts: for rfc9309 and crawler-commons, a file with no line on
// which they can differ from Google (robots.File.ReadsAsGoogle: about
// seven files in ten of the shared corpus) and a crawler they name by the
// values Google names it by (File.AgentsReadAsGoogle); for the python
// readings, a file with no line on which they can differ from Google
// (File.PythonReadsAsGoogle: a file in three for python-legacy, three in
// five for python) and a crawler whose groups Google obeys for one token
// (File.PythonTokenAsGoogle), which is then asked of Google's reading
// (python-legacy's deciding line, first match, is asked of the reading
// itself where it differs). The crawlers that no group of the file can
// name under any parser (no user-agent value relates to their token, see
// relatesTo) all get the verdicts of one of them, computed once; the
// others are judged one by one. Full blocks are judged only where a root
// is disallowed.

// censusProbe is a path no rule of a real file is expected to name: a
// crawler disallowed there and at the root is disallowed beyond the paths
// the rules name ("Disallow: /$" blocks the root alone).
const censusProbe = "/robocensus-census-probe"

// maxProbeRules is how many allow rules of a file name probe paths: the
// full block of a crawler is judged by the root, censusProbe and the paths
// the first maxProbeRules allow rules name.
const maxProbeRules = 200

// census holds what a worker reuses from capture to capture.
type census struct {
	sems      []robots.Semantics // the readings other than Google's
	readings  []*robots.Reading  // of the capture at hand, one per sems; nil until first asked
	alike     []alikeness        // of the capture at hand, one per sems: where that reading gives Google's verdicts
	probes    []string           // of the capture at hand, built when first needed
	related   []bool             // per crawler: a user-agent value of the capture at hand relates to it
	relatedTo map[string][]int   // user-agent value (lower case, trimmed) -> the crawlers it relates to
	google    *robots.Reading    // Google's reading of the capture at hand
	explainer robots.Explainer   // classifies the differences, reused from capture to capture
	unnamed   []int              // the crawlers no group of the capture can name
	tokens    []string           // their tokens
	agentBufs [][1]string        // per reading: the token its verdicts are asked of Google's reading for (ask)
	// googleSel and otherSel are the groups Google's reading and the
	// reading compared with it obey for the crawler judged: selected
	// once, matched against the root and every probe path.
	googleSel, otherSel robots.Selection
	// judgeEach judges every crawler alone, without sharing the verdicts
	// of the crawlers no group can name: the tests compare the two.
	judgeEach bool
	// askEvery builds and asks every reading for every crawler, skipping
	// none that reads as Google: the tests compare the two.
	askEvery bool
}

// newCensus returns the census of every reading robots knows but Google's.
func newCensus() *census {
	sems := robots.AllSemantics()[1:]
	return &census{sems: sems, relatedTo: map[string][]int{}, agentBufs: make([][1]string, len(sems))}
}

// crawlerQuery is what the census asks the readings for one crawler (or
// for every crawler no group can name).
type crawlerQuery struct {
	google []string // the agents Google's verdict is asked for: the selected token, or none for the '*' groups
	tokens []string // the agents the readings that match product tokens are given
	name   []string // the agent the readings that match a crawler's name are given (takesName)
}

// agentsFor returns the agents reading sem is given: what a crawler that
// uses that parser passes it. Python's robotparser is given the crawler's
// name as written ("AI2Bot", "Linguee Bot"; can_fetch cuts it at '/'),
// the other readings the product token Google matches ("AI", "Linguee"),
// or the one Google's selection picked (a fallback such as Googlebot for
// Googlebot-Image).
func (q *crawlerQuery) agentsFor(sem robots.Semantics) []string {
	if takesName(sem) {
		return q.name
	}
	return q.tokens
}

// takesName reports whether a reading matches user-agent lines against the
// crawler's whole name rather than a product token: Python's robotparser,
// before and after gh-138907.
func takesName(sem robots.Semantics) bool {
	n := sem.String()
	return n == "python-legacy" || n == "python"
}

// verdicts is one reading's answer for a crawler: the root verdict and the
// full block, and the path and line that show a difference.
type verdicts struct {
	root    robots.Verdict
	blocked bool
}

// add appends the readings rows of capture id to rs. vias are the agents
// table's vias of the capture, one per crawler (addAgents).
func (c *census) add(m *rowMaker, rs *dataset.Rows, id, host string, f *robots.File, vias []robots.Via) {
	c.google = f.As(robots.SemanticsGoogle)
	c.readings, c.alike = c.readings[:0], c.alike[:0]
	readsAsGoogle := f.ReadsAsGoogle(robots.SemanticsRFC9309) // the same for crawler-commons: its one test serves both
	for _, s := range c.sems {
		c.readings = append(c.readings, nil) // built when first asked (reading)
		c.alike = append(c.alike, alikeOf(f, s, readsAsGoogle))
	}
	c.probes = c.probes[:0]
	c.markRelated(m, f)
	c.unnamed = c.unnamed[:0]
	for i, cr := range m.crawlers {
		switch {
		case vias[i] == robots.ViaNamed || vias[i] == robots.ViaFallback:
			token, _ := f.Select(m.tokens[i])
			name := cr.Token // a fallback is the crawler's policy, not its parser's: it obeys that token's group
			if vias[i] == robots.ViaFallback {
				name = token
			}
			c.judge(rs, id, host, f, crawlerQuery{google: []string{token}, tokens: []string{token}, name: []string{name}}, []string{cr.Token})
		case c.judgeEach || c.related[i]:
			c.judge(rs, id, host, f, crawlerQuery{tokens: []string{cr.MatchToken()}, name: []string{cr.Token}}, []string{cr.Token})
		default:
			c.unnamed = append(c.unnamed, i)
		}
	}
	if len(c.unnamed) > 0 {
		first := m.crawlers[c.unnamed[0]]
		c.tokens = c.tokens[:0]
		for _, i := range c.unnamed {
			c.tokens = append(c.tokens, m.crawlers[i].Token)
		}
		c.judge(rs, id, host, f, crawlerQuery{tokens: []string{first.MatchToken()}, name: []string{first.Token}}, c.tokens)
	}
}

// markRelated sets c.related: for each crawler, whether a user-agent
// value of f relates to one of its tokens (relatesTo). The crawlers each
// value (as written) relates to are kept from capture to capture (values
// repeat: the same crawlers are named in file after file), up to
// maxRelatedValues.
func (c *census) markRelated(m *rowMaker, f *robots.File) {
	if len(c.related) != len(m.crawlers) {
		c.related = make([]bool, len(m.crawlers))
	}
	clear(c.related)
	for gi := range f.Groups {
		for _, a := range f.Groups[gi].Agents(f) {
			v := a.Value(f)
			if v == "*" {
				continue // relates to no crawler (relatesTo), and is the most common value: no lookup
			}
			crawlers, ok := c.relatedTo[v]
			if !ok {
				crawlers = relatedCrawlers(m, strings.ToLower(strings.TrimSpace(v)))
				if len(c.relatedTo) >= maxRelatedValues {
					clear(c.relatedTo)
				}
				c.relatedTo[v] = crawlers
			}
			for _, i := range crawlers {
				c.related[i] = true
			}
		}
	}
}

// maxRelatedValues bounds the memory of census.relatedTo.
const maxRelatedValues = 1 << 16

// relatedCrawlers returns the crawlers of m a user-agent value v (lower
// case, trimmed) relates to.
func relatedCrawlers(m *rowMaker, v string) []int {
	var out []int
	for i, tokens := range m.lowerTokens {
		for _, t := range tokens {
			if relatesTo(t, v) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// relatesTo reports whether a user-agent value v (lower case, trimmed) may
// name the crawler of token t (lower case) for some parser: v is empty
// (every crawler for Python's robotparser), or one contains the other
// (Google's token cut, Python's substring match, crawler-commons' word
// match all need it). '*' relates to no token: every parser reads it as
// the group of all crawlers.
func relatesTo(t, v string) bool {
	if v == "*" {
		return false
	}
	return v == "" || strings.Contains(t, v) || strings.Contains(v, t)
}

// judge compares, for one query, each reading with Google's, and appends a
// row per crawler of tokens for each reading that differs.
func (c *census) judge(rs *dataset.Rows, id, host string, f *robots.File, q crawlerQuery, tokens []string) {
	google := c.google
	var g verdicts
	judged := false // g is Google's verdicts, asked for the first reading not alike
	for ri, sem := range c.sems {
		a, alike := c.ask(f, ri, q.agentsFor(sem), q.google)
		if alike {
			continue // no difference
		}
		if !judged {
			google.Select(q.google, &c.googleSel)
			g, judged = c.verdicts(f, &c.googleSel), true
		}
		a.r.Select(a.agents, &c.otherSel)
		v := c.verdicts(f, &c.otherSel)
		if v.root.Allowed == g.root.Allowed && v.blocked == g.blocked {
			continue
		}
		path := c.differingPath(f, &c.googleSel, &c.otherSel, v, g)
		gv, rv := c.googleSel.Match(path), c.otherSel.Match(path)
		if a.realLines {
			rv = c.reading(f, ri).Match(path, q.agentsFor(sem))
		}
		gl, rl := gv.Line, rv.Line
		class := c.classify(f, robots.Question{Semantics: sem, Path: path, Google: gv, Other: rv})
		for _, t := range tokens {
			rs.Readings = append(rs.Readings, schema.Reading{
				CaptureID: id, URLHostName: host, Agent: t, Semantics: c.sems[ri].String(),
				RootAllowed: v.root.Allowed, Blocked: v.blocked, Line: int32(rl),
				GoogleRootAllowed: g.root.Allowed, GoogleBlocked: g.blocked, GoogleLine: int32(gl),
				Path: path, Class: class,
			})
		}
	}
}

// asked is what gives a reading's verdicts for a query: reading r given
// agents, which is the reading itself or Google's given the token that
// reads alike (File.PythonTokenAsGoogle). realLines is true when r does
// not give the reading's deciding lines (python-legacy's first match):
// the reading itself is then built for a difference.
type asked struct {
	r         *robots.Reading
	agents    []string
	realLines bool
}

// alikeness is where a reading of the capture at hand gives Google's
// verdicts.
type alikeness uint8

const (
	alikeNowhere alikeness = iota // the reading is asked
	alikeByToken                  // for the crawlers File.AgentsReadAsGoogle accepts (File.ReadsAsGoogle)
	alikeByName                   // Google's for the token File.PythonTokenAsGoogle finds (File.PythonReadsAsGoogle)
)

// alikeOf returns where reading s of f gives Google's verdicts;
// readsAsGoogle is f.ReadsAsGoogle of rfc9309, whose test is
// crawler-commons' too (the two differ from Google on the same lines),
// asked once a capture.
func alikeOf(f *robots.File, s robots.Semantics, readsAsGoogle bool) alikeness {
	switch {
	case (s == robots.SemanticsRFC9309 || s == robots.SemanticsCrawlerCommons) && readsAsGoogle:
		return alikeByToken
	case f.PythonReadsAsGoogle(s):
		return alikeByName
	}
	return alikeNowhere
}

// ask returns what gives reading ri's verdicts for agents, Google's being
// asked for googleAgents: alike is true when they are Google's own, so
// that nothing need be asked. A python reading of a file it reads as
// Google (alikeByName) is not built: Google's reading gives its verdicts
// for the token File.PythonTokenAsGoogle finds.
func (c *census) ask(f *robots.File, ri int, agents, googleAgents []string) (a asked, alike bool) {
	switch {
	case c.askEvery:
	case c.alike[ri] == alikeByToken:
		if f.AgentsReadAsGoogle(c.sems[ri], agents) {
			return asked{}, true
		}
	case c.alike[ri] == alikeByName && len(agents) == 1:
		token, ok := f.PythonTokenAsGoogle(c.sems[ri], agents[0])
		if !ok {
			break
		}
		if token == "" && len(googleAgents) == 0 || token != "" && len(googleAgents) == 1 && strings.EqualFold(token, googleAgents[0]) {
			return asked{}, true
		}
		return asked{r: c.google, agents: c.tokenAgents(ri, token), realLines: c.sems[ri] != robots.SemanticsPython}, false
	}
	return asked{r: c.reading(f, ri), agents: agents}, false
}

// tokenAgents returns the agents that give Google's reading token: none
// for the '*' groups (token empty), else token alone, in a slice of
// reading ri's kept from query to query.
func (c *census) tokenAgents(ri int, token string) []string {
	if token == "" {
		return nil
	}
	c.agentBufs[ri][0] = token
	return c.agentBufs[ri][:]
}

// reading returns reading ri of the capture at hand, building it when
// first asked.
func (c *census) reading(f *robots.File, ri int) *robots.Reading {
	if c.readings[ri] == nil {
		c.readings[ri] = f.As(c.sems[ri])
	}
	return c.readings[ri]
}

// verdicts returns the root verdict of a reading's selection for a
// crawler and whether it blocks the crawler fully: the root, censusProbe
// and every probe path disallowed.
func (c *census) verdicts(f *robots.File, sel *robots.Selection) verdicts {
	v := verdicts{root: sel.Match("/")}
	if v.root.Allowed {
		return v
	}
	v.blocked = true
	for _, p := range c.probePaths(f) {
		if sel.Match(p).Allowed {
			v.blocked = false
			break
		}
	}
	return v
}

// differingPath returns the path where Google's selection and another
// reading's (of the same crawler) differ: the root when their root
// verdicts differ, else the first probe path.
func (c *census) differingPath(f *robots.File, google, other *robots.Selection, v, g verdicts) string {
	if v.root.Allowed != g.root.Allowed {
		return "/"
	}
	for _, p := range c.probePaths(f) {
		if google.Match(p).Allowed != other.Match(p).Allowed {
			return p
		}
	}
	return "/"
}

// probePaths returns, built once per capture, censusProbe and the paths
// the file's first maxProbeRules allow rules name: each pattern with '$'
// and '*' taken out, with a leading '/', each once. A crawler disallowed
// at the root can be allowed elsewhere only where an allow rule lets it,
// or where the rule that disallows the root stops matching (censusProbe).
func (c *census) probePaths(f *robots.File) []string {
	if len(c.probes) > 0 {
		return c.probes
	}
	c.probes = append(c.probes, censusProbe)
	for i, n := 0, 0; i < len(f.Rules) && n < maxProbeRules; i++ {
		if f.Rules[i].Directive != robots.Allow {
			continue
		}
		n++
		if p := robots.ExamplePath(f.Rules[i].Value(f)); p != "/" && !containsString(c.probes, p) {
			c.probes = append(c.probes, p)
		}
	}
	return c.probes
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
