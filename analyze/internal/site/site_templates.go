package site

import (
	"context"
	"strconv"
	"strings"

	"github.com/robocensus/robocensus/robots"
)

// SiteTemplate is one template block of the site's file (robots.File.
// Templates on the deciding capture's body): which template and version
// wrote it, its lines, and how it compares with the template's text.
type SiteTemplate struct {
	Template string `json:"template"`
	Version  string `json:"version"`
	Title    string `json:"title"`              // who wrote it
	Released string `json:"released,omitempty"` // when the version appeared
	Start    int    `json:"line_start"`
	End      int    `json:"line_end"`
	// State is "intact", "edited", "extended" or "marked" (robots.
	// TemplateState); SiteLines are the site's own directive lines inside
	// the block.
	State     string `json:"state"`
	SiteLines []int  `json:"site_lines,omitempty"`
	// List is set for a pasted ai.robots.txt block list.
	List *SiteList `json:"list,omitempty"`
	// Cancelled are the site's groups that re-allow a crawler the block
	// shuts out (lint's template-block-cancelled).
	Cancelled []SiteCancel `json:"cancelled,omitempty"`
}

// SiteList is what a pasted ai.robots.txt block list matches: the
// release (the block's Version and Released) with the Jaccard index of
// their agent sets, and the agents of the newest release it misses.
type SiteList struct {
	Similarity float64  `json:"similarity"`
	Missing    []string `json:"missing"`
}

// missingShown is the number of missing agents MissingText names.
const missingShown = 8

// MissingText names the first missing agents, and how many more there
// are: "A, B and 3 more".
func (l *SiteList) MissingText() string {
	if len(l.Missing) <= missingShown {
		return strings.Join(l.Missing, ", ")
	}
	return strings.Join(l.Missing[:missingShown], ", ") + " and " + strconv.Itoa(len(l.Missing)-missingShown) + " more"
}

// SiteCancel is a group of the site that cancels a template's block for
// a crawler: its user-agent line, and what lint says of it.
type SiteCancel struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// siteTemplates finds the template blocks of the deciding capture's body,
// after the listing (nil when the dataset keeps no body).
func (d siteData) siteTemplates(_ context.Context, sc *SiteCrawl, _ string) error {
	if sc.Listing == nil {
		return nil
	}
	sc.Templates = templateBlocks(sc.text, int(sc.Capture.Status))
	return nil
}

// templateBlocks returns the template blocks of a robots.txt text,
// fetched with HTTP status (0: unknown), in line order, each with the
// site's groups that cancel it.
func templateBlocks(text string, status int) []SiteTemplate {
	f := robots.ParseResponseString(robots.Response{Status: status}, text)
	out := []SiteTemplate{}
	for _, b := range f.Templates() {
		t := b.Template()
		st := SiteTemplate{Template: b.Name, Version: b.Version, Title: t.Title, Released: t.Date,
			Start: b.Start, End: b.End, State: b.State.String(), SiteLines: b.SiteLines}
		if b.Name == robots.TemplateAIRobots {
			st.List = &SiteList{Similarity: b.Similarity, Missing: append([]string{}, b.Missing...)}
		}
		for _, dg := range f.Diagnostics {
			if dg.Code == robots.TemplateBlockCancelled && dg.Ref() == b.Start {
				st.Cancelled = append(st.Cancelled, SiteCancel{Line: dg.Line, Message: dg.Message(f)})
			}
		}
		out = append(out, st)
	}
	return out
}
