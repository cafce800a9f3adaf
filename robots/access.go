package robots

// Access says how much of a site a crawler may fetch.
type Access uint8

const (
	// AccessAllowed: no rule disallows any URL.
	AccessAllowed Access = iota
	// AccessPartial: some URLs are disallowed, not all.
	AccessPartial
	// AccessDisallowed: every URL is disallowed.
	AccessDisallowed
)

// String returns the stable name used in the dataset: "allowed",
// "partially-disallowed" or "disallowed".
func (a Access) String() string {
	return [...]string{"allowed", "partially-disallowed", "disallowed"}[a]
}

// Access tells how much of the site a crawler answering to any of agents may
// fetch, from the rules [File.Match] would use for it (its own groups, or the
// '*' groups when none names it). A status that makes crawlers ignore the body
// decides by itself: 5xx and 429 disallow everything, others allow everything.
//
// The rules are judged as a whole, precisely in these terms. A rule "matches
// every path" when its pattern is '/' or '*' followed only by '*' (a final
// '$' allowed after a '*'). A rule "can match" when its pattern starts with
// '/' or '*'. Then:
//   - allowed: no disallow rule can match, or an allow rule that matches every
//     path is at least as long as every disallow rule (it wins everywhere);
//   - disallowed: a disallow rule matches every path and no allow rule that
//     can match (counting Google's index.htm leniency) is as long as it;
//   - partially-disallowed: otherwise.
func (f *File) Access(agents ...string) Access {
	if f.Response.bodyIgnored() {
		if f.Outcome() == OutcomeDisallowAll {
			return AccessDisallowed
		}
		return AccessAllowed
	}
	specific := f.namesAny(agents)
	var allowAll, disallowAll, longestAllow, longestDisallow int
	for gi := range f.Groups {
		g := &f.Groups[gi]
		if specific && !g.names(f, agents) || !specific && !g.Global {
			continue
		}
		rules := g.Rules(f)
		for ri := range rules {
			r := &rules[ri]
			pattern := r.Pattern(f)
			if !r.canMatch(pattern) {
				continue
			}
			n := len(pattern)
			if r.Directive == Allow {
				longestAllow = max(longestAllow, n, r.indexLength())
				if r.matchesAll(pattern) {
					allowAll = max(allowAll, n)
				}
				continue
			}
			longestDisallow = max(longestDisallow, n)
			if r.matchesAll(pattern) {
				disallowAll = max(disallowAll, n)
			}
		}
	}
	switch {
	case longestDisallow == 0 || allowAll >= longestDisallow:
		return AccessAllowed
	case disallowAll > 0 && longestAllow < disallowAll:
		return AccessDisallowed
	}
	return AccessPartial
}

// starAccess is the access of a crawler that no group names.
func (f *File) starAccess() Access { return f.Access() }

// canMatch reports whether pattern, r's, can match some URL path: paths
// start with '/', so a pattern must start with '/' or '*'.
func (r *Rule) canMatch(pattern string) bool {
	t := r.text(pattern)
	return t != "" && (t[0] == '/' || t[0] == '*')
}

// matchesAll reports whether pattern, r's, matches every path: "/" or "*"
// followed only by '*', and if anchored, ending in '*'.
func (r *Rule) matchesAll(pattern string) bool {
	t := r.text(pattern)
	if t == "" || t[0] != '/' && t[0] != '*' {
		return false
	}
	for i := 1; i < len(t); i++ {
		if t[i] != '*' {
			return false
		}
	}
	return !r.pat.anchored || t[len(t)-1] == '*'
}

// indexLength is the priority of the index.htm fallback pattern, or 0.
func (r *Rule) indexLength() int {
	if r.pat.index == 0 {
		return 0
	}
	return int(r.pat.index) + 1
}
