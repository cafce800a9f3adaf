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
