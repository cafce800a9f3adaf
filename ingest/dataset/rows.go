package dataset

import (
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Rows are the rows of some captures, table by table, as a PartWriter
// writes them: the pipeline collects those of the captures a worker has
// parsed, until they are written. Its slices are reused.
type Rows struct {
	Captures    []schema.Capture
	Diagnostics []schema.Diagnostic
	Rules       []schema.Rule
	Sitemaps    []schema.Sitemap
	Agents      AgentRows
	Bodies      []schema.Body
	Directives  []schema.Directive
	Preferences []schema.Preference
	Readings    []schema.Reading
	Templates   []schema.TemplateBlock
	BodyBytes   int
}

// AgentRows are the agents table's rows of some captures, as
// schema.AgentsWriter takes them: for capture i, Named, Access, Via,
// Source and Cancelled hold one entry per tracked crawler from
// i*len(crawlers) on.
type AgentRows struct {
	IDs, Hosts []string
	Named      []bool
	Access     []robots.Access
	Via        []robots.Via
	Source     []robots.VerdictSource
	Cancelled  []bool
}

// Reset empties a, keeping its slices.
func (a *AgentRows) Reset() {
	a.IDs, a.Hosts, a.Named, a.Access, a.Via = a.IDs[:0], a.Hosts[:0], a.Named[:0], a.Access[:0], a.Via[:0]
	a.Source, a.Cancelled = a.Source[:0], a.Cancelled[:0]
}

// Reset empties rs, keeping its slices.
func (rs *Rows) Reset() {
	rs.Captures = rs.Captures[:0]
	rs.Diagnostics = rs.Diagnostics[:0]
	rs.Rules = rs.Rules[:0]
	rs.Sitemaps = rs.Sitemaps[:0]
	rs.Agents.Reset()
	rs.Bodies = rs.Bodies[:0]
	rs.Directives = rs.Directives[:0]
	rs.Preferences = rs.Preferences[:0]
	rs.Readings = rs.Readings[:0]
	rs.Templates = rs.Templates[:0]
	rs.BodyBytes = 0
}

// Len is the number of rows held, all tables together.
func (rs *Rows) Len() int {
	return len(rs.Captures) + len(rs.Diagnostics) + len(rs.Rules) + len(rs.Sitemaps) + len(rs.Agents.Named) + len(rs.Bodies) +
		len(rs.Directives) + len(rs.Preferences) + len(rs.Readings) + len(rs.Templates)
}
