package robots

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusDump guards the whole result of Parse, not only the counts of
// TestCorpusSummary: for every body of the shared corpus it writes a
// canonical dump of the File (every exported field, the diagnostics with
// their messages, severities and spans, the statistics, a few verdicts) and
// compares a SHA-256 per set with testdata/corpus-dump.golden. The corpus
// stays out of the repository; only its hashes are checked in. A change of
// the parser's output shows as a changed hash; run -update only after a
// deliberate change, and say why in the commit.
//
// Each body is parsed a second time by one Parser of the set, whose File
// must dump the same: a Parser's storage, reused from the body before,
// shows nothing of that body.
func TestCorpusDump(t *testing.T) {
	sets := loadCorpus(t)
	var b strings.Builder
	for _, s := range sets {
		h, shared := sha256.New(), sha256.New()
		var ps Parser
		for _, body := range s.bodies {
			fmt.Fprintf(h, "== %s\n", body.Name)
			dumpFile(h, Parse(body.Data))
			fmt.Fprintf(shared, "== %s\n", body.Name)
			dumpFile(shared, ps.Parse(body.Data))
		}
		sum := h.Sum(nil)
		if got := shared.Sum(nil); !bytes.Equal(got, sum) {
			t.Errorf("%s: the Files of a Parser dump %x, those of Parse %x", s.name, got, sum)
		}
		fmt.Fprintf(&b, "%x  %s (%d files)\n", sum, s.name, len(s.bodies))
	}
	golden(t, filepath.Join("testdata", "corpus-dump.golden"), b.String())
}

// dumpFile writes everything a caller can see of f, in a fixed order.
func dumpFile(w hash.Hash, f *File) {
	fmt.Fprintf(w, "response %q size %d bom %d text %d\n", fmt.Sprintf("%+v", f.Response), f.Size, f.bom, len(f.Text()))
	for _, g := range f.Groups {
		fmt.Fprintf(w, "group %d global=%v agents=%d rules=%d\n", g.Line, g.Global, len(g.Agents(f)), len(g.Rules(f)))
		for _, a := range g.Agents(f) {
			dumpAgent(w, f, a)
		}
		for i := range g.Rules(f) {
			dumpRule(w, f, &g.Rules(f)[i])
		}
	}
	for i := range f.Rules {
		dumpRule(w, f, &f.Rules[i])
	}
	for _, s := range f.Sitemaps {
		fmt.Fprintf(w, "sitemap %d %q %v\n", s.Line, s.URL(f), s.Valid)
	}
	for _, e := range f.Extensions {
		fmt.Fprintf(w, "extension %d g%d %q %q %v agents=%d\n", e.Line, e.Group, e.Key(f), e.Value(f), e.Valid, len(e.Agents(f)))
		for _, a := range e.Agents(f) {
			dumpAgent(w, f, a)
		}
	}
	for _, q := range f.Preferences {
		fmt.Fprintf(w, "preference %d %d g%d %q %q %q %d agents=%d\n", q.Line, q.Source, q.Group, q.Path(f), q.Category(f), q.Value(f), q.Allowed, len(q.Agents(f)))
		for _, a := range q.Agents(f) {
			dumpAgent(w, f, a)
		}
	}
	for _, d := range f.Diagnostics {
		s, e := d.Span()
		fmt.Fprintf(w, "diag %d %s %s %q %q ref %d %q span %d-%d: %s\n", d.Line, d.Code, d.Severity(), d.Text(f), d.Arg(f), d.Ref(), d.RefArg(f), s, e, d.Message(f))
	}
	fmt.Fprintf(w, "stats %+v\n", f.Stats)
	fmt.Fprintf(w, "agents %q\n", f.UserAgents())
	for _, u := range []string{"http://e.com/", "http://e.com/index.html", "http://e.com/admin/x?y"} {
		for _, a := range []string{"Googlebot", "UnnamedBot"} {
			fmt.Fprintf(w, "verdict %s %s %+v\n", a, u, f.Match(u, []string{a}))
		}
	}
	fmt.Fprintf(w, "access %v %v\n", f.Access("Googlebot"), f.Access("GPTBot"))
}

func dumpAgent(w io.Writer, f *File, a Agent) {
	fmt.Fprintf(w, "agent %d %q %q %v\n", a.Line, a.Value(f), a.Token(f), a.Global)
}

func dumpRule(w io.Writer, f *File, r *Rule) {
	fmt.Fprintf(w, "rule %d g%d %s %q %q wild=%v anchor=%v\n", r.Line, r.Group, r.Directive, r.Value(f), r.Pattern(f), r.HasWildcard(), r.HasEndAnchor())
}
