package schema_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robocensus/robocensus/schema"
)

func TestTables(t *testing.T) {
	tests := []struct {
		name string
		got  string
	}{
		{"captures", schema.TableName[schema.Capture]()},
		{"diagnostics", schema.TableName[schema.Diagnostic]()},
		{"rules", schema.TableName[schema.Rule]()},
		{"sitemaps", schema.TableName[schema.Sitemap]()},
		{"agents", schema.TableName[schema.Agent]()},
		{"inputs", schema.TableName[schema.Input]()},
		{"bodies", schema.TableName[schema.Body]()},
		{"directives", schema.TableName[schema.Directive]()},
		{"preferences", schema.TableName[schema.Preference]()},
		{"hosts", schema.TableName[schema.Host]()},
		{"readings", schema.TableName[schema.Reading]()},
		{"templates", schema.TableName[schema.TemplateBlock]()},
	}
	tables := schema.Tables()
	if len(tables) != len(tests) {
		t.Fatalf("%d tables, want %d", len(tables), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.name || tables[i].Name != tt.name {
				t.Errorf("TableName = %q, Tables()[%d] = %q", tt.got, i, tables[i].Name)
			}
			tab, err := schema.LookupTable(tt.name)
			if err != nil || tab.Name != tt.name || tab.Doc == "" || tab.Parquet == nil || tab.Arrow == nil {
				t.Errorf("LookupTable(%q) = %+v, %v", tt.name, tab, err)
			}
		})
	}
	if _, err := schema.LookupTable("robots"); !errors.Is(err, schema.ErrUnknownTable) {
		t.Errorf("LookupTable(robots): %v", err)
	}
}

func TestPaths(t *testing.T) {
	root := filepath.Join("data", "out")
	tests := []struct {
		got, want string
	}{
		{schema.PartitionDir(root, "captures", crawlA), "data/out/captures/crawl=CC-MAIN-2025-05"},
		{schema.PartitionDir("", "rules", "x"), "rules/crawl=x"},
		{schema.PartName(0), "part-00000.parquet"},
		{schema.PartName(123456), "part-123456.parquet"},
		{schema.Glob(root, "agents"), "data/out/agents/**/*.parquet"},
	}
	for _, tt := range tests {
		if got := filepath.ToSlash(tt.got); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestCheckCrawl(t *testing.T) {
	tests := []struct {
		label string
		ok    bool
	}{
		{"CC-MAIN-2025-05", true},
		{"2025-11-22", true},
		{"run_1.2", true},
		{strings.Repeat("a", 64), true},
		{"", false},
		{strings.Repeat("a", 65), false},
		{".", false},
		{"..", false},
		{".hidden", false},
		{"a/b", false},
		{`a\b`, false},
		{"a=b", false},
		{"a b", false},
		{"crawl%2F", false},
		{"ünï", false},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			err := schema.CheckCrawl(tt.label)
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, schema.ErrBadCrawl)) {
				t.Errorf("CheckCrawl(%q) = %v, want ok=%v", tt.label, err, tt.ok)
			}
		})
	}
}

func TestClipText(t *testing.T) {
	a199 := strings.Repeat("a", 199)
	tests := []struct {
		name, in, want string
	}{
		{"short", "Disallow: /", "Disallow: /"},
		{"exactly 200", strings.Repeat("x", 200), strings.Repeat("x", 200)},
		{"ascii cut", strings.Repeat("x", 300), strings.Repeat("x", 200)},
		{"2-byte rune across the cut", a199 + "ü" + "zzz", a199},
		{"4-byte rune across the cut", strings.Repeat("a", 198) + "😀", strings.Repeat("a", 198)},
		{"rune ends at the cut", strings.Repeat("a", 198) + "ü" + "zzz", strings.Repeat("a", 198) + "ü"},
		{"not UTF-8", strings.Repeat("\x80", 300), strings.Repeat("\x80", 200)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := schema.ClipText(tt.in)
			if got != tt.want {
				t.Errorf("ClipText = %q (%d bytes), want %d bytes", got, len(got), len(tt.want))
			}
			if len(got) > schema.MaxTextBytes || utf8.ValidString(tt.in) && !utf8.ValidString(got) {
				t.Errorf("ClipText = %d bytes, valid %v", len(got), utf8.ValidString(got))
			}
		})
	}
}
