package analyze

import (
	"io"

	"github.com/robocensus/robocensus/analyze/internal/engine"
	"github.com/robocensus/robocensus/analyze/internal/scan"
	"github.com/robocensus/robocensus/analyze/internal/sections"
	"github.com/robocensus/robocensus/analyze/internal/site"
)

// The figures of the crawl report, defined with the sections that compute
// them (package sections).
type (
	Ratio             = sections.Ratio
	Crawl             = sections.Crawl
	Inputs            = sections.Inputs
	OutcomeShare      = sections.OutcomeShare
	StatusCount       = sections.StatusCount
	CodeShare         = sections.CodeShare
	Sizes             = sections.Sizes
	SizeBucket        = sections.SizeBucket
	Patterns          = sections.Patterns
	Typos             = sections.Typos
	TypoShare         = sections.TypoShare
	TypoKey           = sections.TypoKey
	UserAgents        = sections.UserAgents
	NameCount         = sections.NameCount
	Sitemaps          = sections.Sitemaps
	HostErrors        = sections.HostErrors
	CrawlerFigures    = sections.CrawlerFigures
	CrawlerShare      = sections.CrawlerShare
	HostVerdicts      = sections.HostVerdicts
	Trends            = sections.Trends
	Series            = sections.Series
	Changes           = sections.Changes
	HostChange        = sections.HostChange
	CrawlerChanges    = sections.CrawlerChanges
	SharedBodies      = sections.SharedBodies
	SharedBody        = sections.SharedBody
	ClassicMistakes   = sections.ClassicMistakes
	SurveyFigures     = sections.SurveyFigures
	MistakeShare      = sections.MistakeShare
	UsagePreferences  = sections.UsagePreferences
	MechanismShare    = sections.MechanismShare
	PreferenceValues  = sections.PreferenceValues
	PreferenceStance  = sections.PreferenceStance
	ExtensionUse      = sections.ExtensionUse
	Strata            = sections.Strata
	StratumRow        = sections.StratumRow
	Disagreements     = sections.Disagreements
	ReadingChanges    = sections.ReadingChanges
	VerdictChanges    = sections.VerdictChanges
	DisagreementClass = sections.DisagreementClass
	Authorship        = sections.Authorship
	TemplateShare     = sections.TemplateShare
	TemplateStratum   = sections.TemplateStratum
	TemplateSources   = sections.TemplateSources
	NameHosts         = sections.NameHosts
	ListAges          = sections.ListAges
)

// The site report's parts and its checks (package site).
type (
	Check          = site.Check
	CheckDoc       = site.CheckDoc
	Pass           = site.Pass
	Finding        = site.Finding
	SiteCapture    = site.SiteCapture
	SiteCrawl      = site.SiteCrawl
	SiteHost       = site.SiteHost
	Listing        = site.Listing
	ListingLine    = site.ListingLine
	SiteDiagnostic = site.SiteDiagnostic
	SitePreference = site.SitePreference
	SiteCrawler    = site.SiteCrawler
	SiteSitemap    = site.SiteSitemap
)

// The built-in site checks, in the order they run (see [Checks]).
var (
	FetchCheck       = site.FetchCheck
	SyntaxCheck      = site.SyntaxCheck
	SearchCheck      = site.SearchCheck
	AICheck          = site.AICheck
	PreferencesCheck = site.PreferencesCheck
	SitemapCheck     = site.SitemapCheck
	SizeCheck        = site.SizeCheck
	SharedCheck      = site.SharedCheck
	ChangeCheck      = site.ChangeCheck
)

// Ranks is a ranked host list (Tranco, CrUX, Common Crawl's host ranks),
// read by [ReadRanks]; Stratum is one of its top-k strata.
type (
	Ranks   = scan.Ranks
	Stratum = scan.Stratum
)

// ReadRanks reads a ranked host list: lines "rank,host" (Tranco's CSV)
// or "rank<TAB>host", gzipped or not (see [scan.ReadRanks]).
func ReadRanks(r io.Reader) (*Ranks, error) { return scan.ReadRanks(r) }

// Checks returns the built-in site checks, in the order they run.
func Checks() []*Check { return site.Checks() }

// SectionNames returns the names of the sections of the crawl report, in
// the order the report shows them: what a test checks that each section
// has a counterpart of (the DuckDB cross-checks).
func SectionNames() []string { return sections.SectionNames() }

// The memory model of the crawl report's host batches (package engine;
// see the package documentation, "Memory and speed").
const (
	DefaultBatchCaptures = engine.DefaultBatchCaptures
	BaseMemory           = engine.BaseMemory
	BytesPerCapture      = engine.BytesPerCapture
	BytesPerBody         = engine.BytesPerBody
	MinMemory            = engine.MinMemory
)

// Errors of the packages of the report, by the package that returns them.
var (
	// ErrNoDataset means the folder given to Open holds no partition of
	// the captures table.
	ErrNoDataset = scan.ErrNoDataset
	// ErrNotReaderAt means a file of the fs.FS given to Open cannot be
	// read at an offset (it does not implement io.ReaderAt).
	ErrNotReaderAt = scan.ErrNotReaderAt
	// ErrBadOption means an Option was given an invalid argument.
	ErrBadOption = scan.ErrBadOption
	// ErrNoSite means the dataset holds no capture of the host asked for.
	ErrNoSite = site.ErrNoSite
)
