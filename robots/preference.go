package robots

import "strings"

// Usage preferences: what a file asks of the use of its content, as opposed
// to the crawling its rules allow. Two directives state them:
//
//   - Content-Signal (Cloudflare's Content Signals Policy,
//     contentsignals.org): comma-separated "key=value" pairs; the keys are
//     search, ai-input and ai-train, each "yes" or "no", and Cloudflare's
//     later use=immediate|reference|full.
//   - Content-Usage (IETF AI Preferences): "Content-Usage: path pref" where
//     the path starts with '/' (draft-ietf-aipref-attach §3, "Robots
//     Exclusion Protocol Content-Usage Rule") and pref is a Structured
//     Fields dictionary of category labels, each y or n
//     (draft-ietf-aipref-vocab §6, "Exemplary Serialization Format").
//     Earlier revisions of the attachment draft, and the Content-Usage HTTP
//     field, have no path; one is optional here and "/" when absent.
//
// Both are preferences, not access rules: Google's parser ignores them and
// they change no verdict.

// PreferenceSource names the directive a usage preference comes from.
type PreferenceSource uint8

const (
	// ContentSignal is a Content-Signal line (contentsignals.org).
	ContentSignal PreferenceSource = iota + 1
	// ContentUsage is a Content-Usage line (draft-ietf-aipref-attach).
	ContentUsage
)

// String returns "content-signal" or "content-usage".
func (s PreferenceSource) String() string {
	switch s {
	case ContentSignal:
		return "content-signal"
	case ContentUsage:
		return "content-usage"
	}
	return "unknown"
}

// Usage is what a preference says of the use of content for its category.
type Usage uint8

const (
	// UsageUnknown: the value is not understood (or, for Content-Usage,
	// the line does not parse), so the preference is unknown, as
	// draft-ietf-aipref-vocab §6.5 defines it.
	UsageUnknown Usage = iota
	// UsageAllowed: "yes" (Content-Signal) or "y" (Content-Usage).
	UsageAllowed
	// UsageDisallowed: "no" or "n".
	UsageDisallowed
)

// String returns "unknown", "allowed" or "disallowed".
func (u Usage) String() string {
	return [...]string{"unknown", "allowed", "disallowed"}[u]
}

// Bool returns the preference as a nullable boolean: allowed, and whether
// it is known at all.
func (u Usage) Bool() (allowed, known bool) { return u == UsageAllowed, u != UsageUnknown }

// Preference is one usage preference: one "key=value" pair of a
// Content-Signal or Content-Usage line. It holds no pointer: its strings
// are offsets into its line of the File that parsed it, read through that
// File ([Preference.Path], [Preference.Category], [Preference.Value],
// [Preference.Agents]).
type Preference struct {
	Line   int
	Source PreferenceSource
	// Group says whom the preference addresses, as for an [Extension]:
	// -1 for a line before any user-agent line, which concerns every
	// crawler.
	Group    int
	path     span // the Content-Usage path as written; empty for none ("/")
	category span
	value    span
	Allowed  Usage
}

// Path returns the scope of the preference: the Content-Usage path, "/"
// when the line names none. f is the File whose Preferences hold p.
func (p Preference) Path(f *File) string {
	if s := f.spanText(p.Line, p.path); s != "" {
		return s
	}
	return "/"
}

// Category returns the key as written: search, ai-input, ai-train or use
// for Content-Signal; train-ai, ai-use, search, ... for Content-Usage. A
// key the vocabulary does not define is kept too (see
// [Preference.KnownCategory]).
func (p Preference) Category(f *File) string { return f.spanText(p.Line, p.category) }

// Value returns the value as written: "no", "n", "reference"; "" when
// missing.
func (p Preference) Value(f *File) string { return f.spanText(p.Line, p.value) }

// Agents returns the user-agent lines of the preference's group, the
// crawlers it addresses; nil when Group is -1.
func (p Preference) Agents(f *File) []Agent { return f.groupAgents(p.Group) }

// Content Signals keys (contentsignals.org). "use" is Cloudflare's later
// addition: how far AI systems may use content (immediate, reference,
// full), not a yes or no.
var signalKeys = [...]string{"search", "ai-input", "ai-train", "use"}

// Content-Usage labels: the vocabulary's current categories
// (draft-ietf-aipref-vocab §5.1 "Usage Category Labels": train-ai, ai-use,
// search) and those of its earlier revisions (train-genai, all, bots).
var usageLabels = [...]string{"train-ai", "ai-use", "search", "train-genai", "all", "bots"}

// Categories returns the categories the standard of src defines, in the
// order of its vocabulary: the Content Signals keys, or the Content-Usage
// labels (current, then those of earlier revisions). Content Signals keys
// match in any case, Content-Usage labels exactly.
func Categories(src PreferenceSource) []string {
	if src == ContentSignal {
		return append([]string(nil), signalKeys[:]...)
	}
	return append([]string(nil), usageLabels[:]...)
}

// KnownCategory reports whether the category is one the preference's
// standard defines.
func (p *Preference) KnownCategory(f *File) bool { return knownCategory(p.Source, p.Category(f)) }

func knownCategory(src PreferenceSource, k string) bool {
	if src == ContentSignal {
		for _, s := range signalKeys {
			if strings.EqualFold(k, s) {
				return true
			}
		}
		return false
	}
	for _, s := range usageLabels {
		if k == s { // case-sensitive (draft-ietf-aipref-vocab §5.1)
			return true
		}
	}
	return false
}

// Explain says what the preference asks, in words a site owner
// understands: "asks that content not be used to train AI models; this is
// a preference, not an access rule".
func (p *Preference) Explain(f *File) string {
	return explainPreference(p.Source, p.Category(f), p.Value(f), p.Path(f))
}

// ExplainPreference is [Preference.Explain] for a preference given by its
// strings, as the dataset's preferences table holds them: the category and
// value as written and the path ("/" for none).
func ExplainPreference(src PreferenceSource, category, value, path string) string {
	return explainPreference(src, category, value, path)
}

// usageOf reads a value: yes/no for Content-Signal (any case, a leniency:
// the policy writes them in lower case), y/n for Content-Usage (Tokens,
// case-sensitive).
func usageOf(src PreferenceSource, v string) Usage {
	if src == ContentSignal {
		switch {
		case strings.EqualFold(v, "yes"):
			return UsageAllowed
		case strings.EqualFold(v, "no"):
			return UsageDisallowed
		}
		return UsageUnknown
	}
	switch v {
	case "y":
		return UsageAllowed
	case "n":
		return UsageDisallowed
	}
	return UsageUnknown
}

// validValue reports whether v is a value the standard defines for key k.
func validValue(src PreferenceSource, k, v string) bool {
	if src == ContentSignal && strings.EqualFold(k, "use") {
		return strings.EqualFold(v, "immediate") || strings.EqualFold(v, "reference") || strings.EqualFold(v, "full")
	}
	return usageOf(src, v) != UsageUnknown
}

// splitUsage splits a Content-Usage value into its path and its
// preference dictionary. The path is the first word when it has no '=' and
// looks like a path (it has '/' or '*'); without one the path is "/" and
// given is false.
func splitUsage(v string) (path, dict string, given bool) {
	first, rest := v, ""
	if i := indexBlank(v); i >= 0 {
		first, rest = v[:i], trimSpace(v[i:])
	}
	if first == "" || strings.IndexByte(first, '=') >= 0 || strings.IndexAny(first, "/*") < 0 {
		return "/", v, false
	}
	return first, rest, true
}

// isSFKey reports whether k is a Structured Fields key (RFC 9651 §3.1.2):
// lcalpha or '*', then lcalpha, digits, '_', '-', '.' and '*'.
func isSFKey(k string) bool {
	if k == "" || !(k[0] >= 'a' && k[0] <= 'z' || k[0] == '*') {
		return false
	}
	for i := 1; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*') {
			return false
		}
	}
	return true
}

// trimOWS trims spaces and tabs, the optional whitespace of Structured
// Fields lists and dictionaries.
func trimOWS(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// nextMember cuts the first comma-separated member off s; a comma inside a
// quoted string (a Structured Fields String, RFC 9651 §3.3.3) does not
// separate members.
func nextMember(s string) (member, rest string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// prefItem is one "key=value" member of a preference line.
type prefItem struct {
	text     string // the member as written, trimmed
	key, val string
	hasValue bool
}

// cutItem splits a member. Content-Usage members may carry parameters
// (";name=value"), which draft-ietf-aipref-vocab §6.5 says to ignore.
func cutItem(src PreferenceSource, item string) prefItem {
	it := prefItem{text: item}
	kv := item
	if src == ContentUsage {
		if i := strings.IndexByte(kv, ';'); i >= 0 {
			kv = kv[:i]
		}
	}
	it.key, it.val, it.hasValue = strings.Cut(kv, "=")
	return it
}

// preferences parses a Content-Signal or Content-Usage line into
// preferences and reports its problems; it returns whether the line is
// valid by its definition.
func (p *parser) preferences(l *Line, src PreferenceSource, report bool) bool {
	v, path, dict := l.Value, "/", l.Value
	valid := true
	if src == ContentUsage {
		var given bool
		path, dict, given = splitUsage(v)
		if given && path[0] != '/' {
			valid = false
			if report {
				p.add(l.Number, UsagePathNotAbsolute, l.Text, path)
			}
		}
	}
	if trimOWS(dict) == "" {
		if report {
			p.add(l.Number, UsagePreferenceBadValue, l.Text, "")
		}
		return false
	}
	// A Content-Usage key that is not a Structured Fields key (upper case,
	// say) makes RFC 9651 parsing fail, so every preference of the line is
	// unknown (draft-ietf-aipref-vocab §6.5.1).
	broken := src == ContentUsage && hasBadKey(dict)
	for rest := dict; rest != ""; {
		var item string
		item, rest = nextMember(rest)
		item = trimOWS(item)
		if item == "" {
			continue // an empty member: tolerated
		}
		it := cutItem(src, item)
		ok := p.preference(l, src, path, &it, broken, report)
		valid = valid && ok
	}
	return valid && !broken
}

// hasBadKey reports whether a Content-Usage dictionary has a member whose
// key is not a Structured Fields key.
func hasBadKey(dict string) bool {
	for rest := dict; rest != ""; {
		var item string
		item, rest = nextMember(rest)
		if item = trimOWS(item); item != "" && !isSFKey(cutItem(ContentUsage, item).key) {
			return true
		}
	}
	return false
}

// preference records one member and reports what is wrong with it, or
// explains it.
// On a broken line (see hasBadKey) every preference is unknown, and only
// the bad keys are reported.
func (p *parser) preference(l *Line, src PreferenceSource, path string, it *prefItem, broken, report bool) bool {
	f := p.f
	pr := Preference{
		Line: l.Number, Source: src, Group: p.cur,
		category: f.spanIn(l.Text, it.key), value: f.spanIn(l.Text, it.val), Allowed: usageOf(src, it.val),
	}
	if path != "/" {
		pr.path = f.spanIn(l.Text, path)
	}
	known := knownCategory(src, it.key)
	good := known && it.hasValue && validValue(src, it.key, it.val)
	if !it.hasValue || broken {
		pr.Allowed = UsageUnknown // a bare key is a Boolean, not y or n
	}
	if broken {
		if report && !isSFKey(it.key) {
			p.add(l.Number, UsagePreferenceUnknownKey, l.Text, it.key)
		}
		report = false
	}
	if report {
		n, t := l.Number, l.Text
		switch {
		case !known:
			p.add(n, UsagePreferenceUnknownKey, t, it.key)
		case !good:
			p.add(n, UsagePreferenceBadValue, t, it.text)
		default:
			if q := p.conflicting(&pr); q != nil {
				p.add(n, UsagePreferenceConflict, t, it.text)
				d := &p.f.Diagnostics[len(p.f.Diagnostics)-1]
				d.refer(q.Line, f.spanIn(f.lineText(q.Line), q.Category(f)+"="+q.Value(f)))
			} else {
				p.add(n, UsagePreference, t, it.text)
			}
		}
	}
	p.f.Preferences = append(p.f.Preferences, pr)
	return good
}

// conflicting returns an earlier preference for the same crawlers, source,
// path and category that says the opposite, or nil. Preferences are few:
// a linear scan of the current group's.
func (p *parser) conflicting(pr *Preference) *Preference {
	if pr.Allowed == UsageUnknown {
		return nil
	}
	f := p.f
	ps := f.Preferences
	for i := len(ps) - 1; i >= p.curFirstPref; i-- {
		q := &ps[i]
		if q.Group != pr.Group || q.Source != pr.Source || q.Path(f) != pr.Path(f) {
			continue
		}
		qc, pc := q.Category(f), pr.Category(f)
		same := qc == pc || pr.Source == ContentSignal && strings.EqualFold(qc, pc)
		if same && q.Allowed != UsageUnknown {
			if q.Allowed != pr.Allowed {
				return q
			}
			return nil
		}
	}
	return nil
}

// categoryWords says what a category covers, in the words of its
// definition: Content Signals (contentsignals.org) and
// draft-ietf-aipref-vocab §4.
func categoryWords(src PreferenceSource, k string) string {
	if src == ContentSignal {
		switch strings.ToLower(k) {
		case "search":
			return "to build a search index and show search results (links and short excerpts, not AI-generated summaries)"
		case "ai-input":
			return "as input to AI models at answer time (retrieval-augmented generation, grounding, AI search answers)"
		case "ai-train":
			return "to train or fine-tune AI models"
		}
		return ""
	}
	switch k {
	case "train-ai":
		return "to train generative AI models"
	case "ai-use":
		return "as input to generative AI models (when the user did not provide it)"
	case "search":
		return "in search applications that link back to it (not for generated summaries)"
	case "train-genai":
		return "to train generative AI models"
	case "all", "bots":
		return "for any automated processing"
	}
	return ""
}

const notAnAccessRule = "; this is a preference, not an access rule"

// explainPreference says what one preference asks.
func explainPreference(src PreferenceSource, k, v, path string) string {
	return string(writePreference(message{}, src, k, v, path).b)
}

// writePreference appends what one preference asks to m: the message of
// the usage-preference finding and [Preference.Explain].
func writePreference(m message, src PreferenceSource, k, v, path string) message {
	if src == ContentSignal && strings.EqualFold(k, "use") {
		switch {
		case strings.EqualFold(v, "immediate"):
			return writeScope(m.add("asks AI systems to use content"), path).add(" only immediately, storing and reusing nothing").add(notAnAccessRule)
		case strings.EqualFold(v, "reference"):
			return writeScope(m.add("asks AI systems to use content"), path).add(" only for reference: index it, quote excerpts and link back").add(notAnAccessRule)
		case strings.EqualFold(v, "full"):
			return writeScope(m.add("allows AI systems to summarize and reproduce content"), path).add(notAnAccessRule)
		}
	}
	words := categoryWords(src, k)
	if words == "" {
		return m.add("states ").add(k).add("=").add(v).add(", a category its standard does not define: crawlers ignore it")
	}
	switch usageOf(src, v) {
	case UsageAllowed:
		return writeScope(m.add("allows content"), path).add(" to be used ").add(words).add(notAnAccessRule)
	case UsageDisallowed:
		return writeScope(m.add("asks that content"), path).add(" not be used ").add(words).add(notAnAccessRule)
	}
	m = m.add("states no understandable preference on use ").add(words).add(" (the value \"").add(v)
	if src == ContentSignal {
		return m.add("\" is neither yes nor no)")
	}
	return m.add("\" is neither y nor n)")
}

// writeScope appends " under PATH" for a path other than the root.
func writeScope(m message, path string) message {
	if path != "/" && path != "" {
		return m.add(" under ").add(path)
	}
	return m
}

// preferenceLine finds the source and path of a preference line from its
// text, for messages.
func preferenceLine(text string) (PreferenceSource, string) {
	l := classify(0, text, false)
	if strings.EqualFold(l.KeyText, "content-usage") {
		path, _, _ := splitUsage(l.Value)
		return ContentUsage, path
	}
	return ContentSignal, "/"
}

func preferenceName(src PreferenceSource) string {
	if src == ContentUsage {
		return "Content-Usage"
	}
	return "Content-Signal"
}

// exampleValue is a value to suggest for key k.
func exampleValue(src PreferenceSource, k string) string {
	switch {
	case src == ContentUsage:
		return "n"
	case strings.EqualFold(k, "use"):
		return "reference"
	}
	return "no"
}
