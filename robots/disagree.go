package robots

import (
	"fmt"
	"slices"
	"strings"
)

// A Disagreement is a line of a file that other parsers read differently
// from Google's parser, found by [File.Disagreements]: the class of the
// difference and, for each reading that gives some crawler another
// verdict, an example.
type Disagreement struct {
	Line     int             // the line the class is about ([Difference.Line]); 0 for the whole file
	Class    DifferenceClass // why the verdicts differ
	Examples []ReadingExample
}

// A ReadingExample is one question on which a reading's verdict differs
// from Google's.
type ReadingExample struct {
	Semantics Semantics
	Crawler   string  // the crawler's name, as given to File.Disagreements
	Path      string  // the URL path asked
	Google    Verdict // Google's verdict, with its deciding line
	Other     Verdict // the reading's verdict, with its deciding line
}

// maxDisagreementPaths bounds the paths File.Disagreements asks about: the
// root and those the file's first rules name.
const maxDisagreementPaths = 200

// maxNamedCrawlers bounds the user-agent values of the file that
// File.Disagreements asks about as crawlers of their own.
const maxNamedCrawlers = 50

// Disagreements compares, for each crawler of crawlers (names as a
// crawler writes them, "GPTBot", "Linguee Bot") and for the crawlers the
// file's user-agent lines name (at most 50), every reading of
// [AllSemantics] with Google's, on the root and on the path each of the
// file's first 200 rules names ([ExamplePath]). Each difference is
// explained ([Explainer]) and the lines read differently are returned in
// line order, then class order, each with one example per reading that
// differs there. Python's readings are given the crawler's name, the
// others its product token ([ExtractAgentToken]), as the crawlers using
// them pass it. Of the crawlers that no user-agent value of the file can
// name for any parser (none is empty, or contains or is contained in the
// crawler's token, ignoring case), only the first is asked: the others get
// its verdicts.
func (f *File) Disagreements(crawlers []string) []Disagreement {
	paths := f.examplePaths()
	google := f.As(SemanticsGoogle)
	q := disagreementAsker{f: f, paths: paths, google: google, googleProbes: newProbes(google, paths),
		readsAsGoogle: f.ReadsAsGoogle(SemanticsRFC9309)} // crawler-commons' too
	for _, s := range AllSemantics()[1:] {
		q.readings = append(q.readings, askedReading{sem: s, pyAlike: f.PythonReadsAsGoogle(s)})
	}
	var found disagreementSet
	for _, name := range f.disagreementCrawlers(crawlers) {
		if q.choose(name) {
			q.askPaths(name, &found)
		}
	}
	return found.sorted()
}

// disagreementAsker asks, for File.Disagreements, each crawler's verdicts
// of each reading on the example paths.
type disagreementAsker struct {
	f             *File
	paths         []string
	google        *Reading
	googleSel     Selection  // Google's groups for the crawler being asked
	googleProbes  pathProbes // each path made ready for Google's reading once
	readsAsGoogle bool       // f.ReadsAsGoogle of rfc9309 and crawler-commons
	readings      []askedReading
	tokenSel      Selection // memory for readsAlike
}

// askedReading is one reading of File.Disagreements: built when a crawler
// first needs it, as the shortcuts may spare it for every crawler.
type askedReading struct {
	sem     Semantics
	pyAlike bool       // f.PythonReadsAsGoogle(sem)
	r       *Reading   // nil until first asked
	probes  pathProbes // each path made ready for r once, when first asked
	sel     Selection  // r's groups for the crawler being asked
	ask     bool       // the crawler being asked is asked of r
	// asked holds the pairs of selections (Google's, r's) of the crawlers
	// asked so far: a crawler whose pair is one of them gets the same
	// verdicts on every path, so it can find nothing new.
	asked [][2]Selection
}

// choose selects the groups of crawler name in Google's reading and in
// each reading it is to be asked of, and reports whether any is: not
// those that give it Google's verdicts everywhere (readsAlike) nor those
// that gave an earlier crawler the same pair of selections.
func (q *disagreementAsker) choose(name string) bool {
	token := []string{ExtractAgentToken(name)}
	q.google.Select(token, &q.googleSel)
	anyAsked := false
	for i := range q.readings {
		a := &q.readings[i]
		a.ask = !readsAlike(q.f, a.sem, name, q.readsAsGoogle, a.pyAlike, q.google, &q.googleSel, &q.tokenSel)
		if !a.ask {
			continue
		}
		if a.r == nil {
			a.r = q.f.As(a.sem)
			a.probes = newProbes(a.r, q.paths)
		}
		agents := token
		if a.sem == SemanticsPythonLegacy || a.sem == SemanticsPython {
			agents = []string{name} // Python's readings are given the name
		}
		a.r.Select(agents, &a.sel)
		a.ask = !slices.ContainsFunc(a.asked, func(p [2]Selection) bool { return p[0].sameAs(&q.googleSel) && p[1].sameAs(&a.sel) })
		if a.ask {
			a.asked = append(a.asked, [2]Selection{q.googleSel.clone(), a.sel.clone()})
			anyAsked = true
		}
	}
	return anyAsked
}

// askPaths asks crawler name's verdicts on every path of the readings
// choose chose, and adds each difference, explained, to found.
func (q *disagreementAsker) askPaths(name string, found *disagreementSet) {
	for pi, path := range q.paths {
		g := q.googleSel.MatchProbe(q.googleProbes.of(pi))
		for i := range q.readings {
			a := &q.readings[i]
			if !a.ask {
				continue
			}
			v := a.sel.MatchProbe(a.probes.of(pi))
			if v.Allowed != g.Allowed {
				d := found.x.ExplainQuestion(q.f, Question{Semantics: a.sem, Path: path, Google: g, Other: v})
				found.add(d, ReadingExample{Semantics: a.sem, Crawler: name, Path: path, Google: g, Other: v})
			}
		}
	}
}

// disagreementSet gathers the disagreements of a file by line and class,
// with one example per reading.
type disagreementSet struct {
	x     Explainer
	found map[Difference]*Disagreement
	order []Difference
}

// add records example under the difference d explains, unless that
// difference has an example of the same reading.
func (s *disagreementSet) add(d Difference, e ReadingExample) {
	key := Difference{Class: d.Class, Line: d.Line}
	dis, ok := s.found[key]
	if !ok {
		if s.found == nil {
			s.found = map[Difference]*Disagreement{}
		}
		dis = &Disagreement{Line: d.Line, Class: d.Class}
		s.found[key] = dis
		s.order = append(s.order, key)
	}
	if !slices.ContainsFunc(dis.Examples, func(x ReadingExample) bool { return x.Semantics == e.Semantics }) {
		dis.Examples = append(dis.Examples, e)
	}
}

// sorted returns the disagreements in line order, then class order, each
// with its examples in the order of the readings.
func (s *disagreementSet) sorted() []Disagreement {
	slices.SortFunc(s.order, func(a, b Difference) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return int(a.Class) - int(b.Class)
	})
	out := make([]Disagreement, 0, len(s.order))
	for _, k := range s.order {
		dis := s.found[k]
		slices.SortFunc(dis.Examples, func(a, b ReadingExample) int { return int(a.Semantics) - int(b.Semantics) })
		out = append(out, *dis)
	}
	return out
}

// readsAlike reports whether reading sem of f gives the crawler name
// Google's verdicts on every path, googleSel being Google's selection for
// the crawler's token: by the census's shortcuts, rfc9309 and
// crawler-commons where f reads as Google (readsAsGoogle, ReadsAsGoogle)
// for a name that is a product token (AgentsReadAsGoogle); a python reading where f reads as
// Google (pyAlike, PythonReadsAsGoogle) and Google's groups for the token
// Python's reading maps the name to (PythonTokenAsGoogle) are the
// crawler's. tokenSel is memory for that selection.
func readsAlike(f *File, sem Semantics, name string, readsAsGoogle, pyAlike bool, google *Reading, googleSel, tokenSel *Selection) bool {
	switch {
	case sem == SemanticsRFC9309 || sem == SemanticsCrawlerCommons:
		// The shortcut holds for product tokens: a name Google cuts ("360Spider"
		// to nothing, "Twitterbot/1.0" to "Twitterbot") is not one.
		token := ExtractAgentToken(name)
		return readsAsGoogle && token != "" && token == name && f.AgentsReadAsGoogle(sem, []string{token})
	case pyAlike:
		token, ok := f.PythonTokenAsGoogle(sem, name)
		if !ok {
			return false
		}
		var agents []string
		if token != "" {
			agents = []string{token}
		}
		google.Select(agents, tokenSel)
		return tokenSel.sameAs(googleSel)
	}
	return false
}

// pathProbes are the probes of a reading's paths, each made when first asked.
type pathProbes struct {
	r     *Reading
	paths []string
	made  []bool
	p     []Probe
}

func newProbes(r *Reading, paths []string) pathProbes {
	return pathProbes{r: r, paths: paths, made: make([]bool, len(paths)), p: make([]Probe, len(paths))}
}

// of returns the probe of path j.
func (ps *pathProbes) of(j int) Probe {
	if !ps.made[j] {
		ps.p[j], ps.made[j] = ps.r.Probe(ps.paths[j]), true
	}
	return ps.p[j]
}

// disagreementCrawlers returns the crawlers File.Disagreements asks about:
// those of given that a user-agent value of f may name for some parser,
// the first of the others, and the values of f themselves (not '*' nor
// empty, at most maxNamedCrawlers), each once.
func (f *File) disagreementCrawlers(given []string) []string {
	values := f.UserAgents()
	lowered := make([]string, len(values))
	for i, v := range values {
		lowered[i] = strings.ToLower(strings.TrimSpace(v))
	}
	var out []string
	unnamedAsked := false
	for _, name := range given {
		if slices.Contains(out, name) {
			continue
		}
		if !mayBeNamed(strings.ToLower(ExtractAgentToken(name)), lowered) {
			if unnamedAsked {
				continue
			}
			unnamedAsked = true
		}
		out = append(out, name)
	}
	named := 0
	for _, v := range values {
		if v = strings.TrimSpace(v); v == "" || v == "*" || slices.Contains(out, v) || named == maxNamedCrawlers {
			continue
		}
		out = append(out, v)
		named++
	}
	return out
}

// mayBeNamed reports whether a user-agent value among values may name the
// crawler of token t (lower case) for some parser; values are trimmed and
// lower-cased. It may when the value is empty (every crawler, for Python),
// or one of the two contains the other (Google's cut token, Python's
// substring match and crawler-commons' leading token all need it). '*'
// names every crawler alike for every parser.
func mayBeNamed(t string, values []string) bool {
	for _, v := range values {
		if v != "*" && (v == "" || strings.Contains(t, v) || strings.Contains(v, t)) {
			return true
		}
	}
	return false
}

// examplePaths returns the root and the path each of the first rules of f
// names ([ExamplePath]), each once, at most maxDisagreementPaths.
func (f *File) examplePaths() []string {
	paths := []string{"/"}
	for i := 0; i < len(f.Rules) && len(paths) < maxDisagreementPaths; i++ {
		if p := ExamplePath(f.Rules[i].Value(f)); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths
}

// ExamplePath returns a path a rule's pattern names: the pattern with '*'
// and '$' taken out, with a leading '/'.
func ExamplePath(pattern string) string {
	if strings.HasPrefix(pattern, "/") && !strings.ContainsAny(pattern, "*$") {
		return pattern
	}
	b := make([]byte, 0, len(pattern)+1)
	if !strings.HasPrefix(pattern, "/") {
		b = append(b, '/')
	}
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '*' && pattern[i] != '$' {
			b = append(b, pattern[i])
		}
	}
	return string(b)
}

// Diagnostic returns the disagreement as a finding of its class's code
// ([DifferenceClass.Code]) on its line of f. Its argument, and so its
// message, names each reading that reads the line differently and how: the
// examples of f's own disagreement of that class on that line for the
// tracked crawlers (those of [File.ReadingDiagnostics]), or none when f
// has no such disagreement. [Disagreement.AppendMessage] writes the
// message of d's own examples.
func (d Disagreement) Diagnostic(f *File) Diagnostic {
	diag := Diagnostic{Line: d.Line, Code: d.Class.Code()}
	for i, t := range f.trackedDisagreements() {
		if t.Line == d.Line && t.Class == d.Class {
			diag.arg = span{start: int32(-i - 1)}
			break
		}
	}
	return diag
}

// AppendMessage appends the message of the disagreement's finding to dst:
// its class's lead, then each of its examples.
func (d Disagreement) AppendMessage(dst []byte) []byte {
	m := message{b: dst, line: d.Line}
	return m.write(d.Class.Code(), d.examples())
}

// examples joins the examples of d, as its finding's argument.
func (d Disagreement) examples() string {
	parts := make([]string, len(d.Examples))
	for i, e := range d.Examples {
		parts[i] = e.String()
	}
	return strings.Join(parts, "; ")
}

// trackedDisagreements returns f.Disagreements for the tracked crawlers,
// made once: the findings of ReadingDiagnostics refer to them by index.
func (f *File) trackedDisagreements() []Disagreement {
	if p := f.readings.Load(); p != nil {
		return *p
	}
	names := make([]string, len(trackedCrawlers))
	for i, c := range trackedCrawlers {
		names[i] = c.Token
	}
	dis := f.Disagreements(names)
	f.readings.CompareAndSwap(nil, &dis) // a concurrent caller's equal list may win
	return *f.readings.Load()
}

// readingArg returns the argument of the finding of f's i-th tracked
// disagreement: its examples.
func (f *File) readingArg(i int) string { return f.trackedDisagreements()[i].examples() }

// String says what the reading does differently: "python-legacy
// disallows /wp-admin/admin-ajax.php for GPTBot (line 2; Google allows
// it, line 3)".
func (e ReadingExample) String() string {
	return fmt.Sprintf("%s %s %s for %s (%s; Google %s it, %s)", e.Semantics, verb(e.Other.Allowed), e.Path, e.Crawler,
		decidedBy(e.Other), verb(e.Google.Allowed), decidedBy(e.Google))
}

// verb is "allows" or "disallows".
func verb(allowed bool) string {
	if allowed {
		return "allows"
	}
	return "disallows"
}

// decidedBy names a verdict's deciding line, or says no rule decided.
func decidedBy(v Verdict) string {
	if v.Line == 0 {
		return "no rule"
	}
	return fmt.Sprintf("line %d", v.Line)
}

// ReadingDiagnostics returns the findings of [File.Disagreements] for the
// tracked crawlers ([TrackedCrawlers]): the lines other parsers read
// differently from Google's, in line order. They are not in
// File.Diagnostics: lint reports them, the dataset's diagnostics table
// does not (its readings table holds the census of parsers).
func (f *File) ReadingDiagnostics() []Diagnostic {
	dis := f.trackedDisagreements()
	out := make([]Diagnostic, len(dis))
	for i, d := range dis {
		out[i] = Diagnostic{Line: d.Line, Code: d.Class.Code(), arg: span{start: int32(-i - 1)}}
	}
	return out
}
