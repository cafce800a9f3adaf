package ingest

import (
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// addTemplates appends a templates row for each template block the parse
// found in the file (robots.File.Templates); most files have none, and
// cost nothing more here.
func addTemplates(rs *dataset.Rows, id, host string, f *robots.File) {
	for i := range f.Templates() {
		rs.Templates = append(rs.Templates, templateRow(id, host, &f.Templates()[i]))
	}
}

// templateRow is the templates row of one block.
func templateRow(id, host string, b *robots.TemplateBlock) schema.TemplateBlock {
	return schema.TemplateBlock{
		CaptureID: id, URLHostName: host, Template: b.Name, Version: b.Version,
		LineStart: int32(b.Start), LineEnd: int32(b.End), State: b.State.String(),
		SiteLines: int32(len(b.SiteLines)), Similarity: b.Similarity, Missing: b.Missing,
		Released: b.Template().Date,
	}
}

// addSources fills the agents rows of the capture at hand, from index
// first on, with whose lines shut each crawler out and whether the site's
// lines cancel a template's block. Only a file with template blocks is
// attributed (robots.File.Attribute parses its template and site lines
// apart); in the others every full block is the site's.
func (m *rowMaker) addSources(a *dataset.AgentRows, first int, f *robots.File) {
	if m.attribute && len(f.Templates()) > 0 {
		for i, at := range f.Attribute(m.crawlers) {
			a.Source[first+i], a.Cancelled[first+i] = at.Source, at.Cancelled
		}
		return
	}
	for i := first; i < len(a.Access); i++ {
		if a.Access[i] == robots.AccessDisallowed {
			a.Source[i] = robots.SourceSite
		}
	}
}
