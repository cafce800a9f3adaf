package main

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"unicode/utf8"

	"github.com/robocensus/robocensus/robots"
)

// The parts of a SARIF 2.1.0 log that lint writes (OASIS SARIF v2.1.0,
// §3.13 sarifLog, §3.14 run, §3.19 toolComponent, §3.27 result, §3.29
// physicalLocation, §3.30 region).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		ColumnKind string        `json:"columnKind"`
		Results    []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string        `json:"id"`
		ShortDescription     sarifText     `json:"shortDescription"`
		DefaultConfiguration sarifRuleConf `json:"defaultConfiguration"`
	}
	sarifRuleConf struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// sarifLevel maps a severity to a SARIF level: error, warning or note.
func sarifLevel(s robots.Severity) string {
	switch s {
	case robots.Error:
		return "error"
	case robots.Warning:
		return "warning"
	}
	return "note"
}

// writeSARIF writes the findings as a SARIF 2.1.0 log of one run whose
// rules are the whole diagnostic catalogue.
func writeSARIF(w io.Writer, findings []finding) error {
	info, ok := debug.ReadBuildInfo()
	driver := sarifDriver{Name: "robocensus", Version: version(info, ok), InformationURI: "https://github.com/robocensus/robocensus"}
	index := map[string]int{}
	for _, c := range robots.Codes() {
		if c.Reader {
			continue // found by ingest in records, never by lint
		}
		index[c.Name] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRule{ID: c.Name, ShortDescription: sarifText{c.Summary},
			DefaultConfiguration: sarifRuleConf{sarifLevel(c.Severity)}})
	}
	run := sarifRun{Tool: sarifTool{driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	for _, f := range findings {
		r := sarifResult{RuleID: f.Code, RuleIndex: index[f.Code], Level: sarifLevel(f.sev), Message: sarifText{f.Message}}
		if f.File != "-" {
			loc := sarifPhysical{ArtifactLocation: sarifArtifact{(&url.URL{Path: filepath.ToSlash(f.File)}).String()}}
			if f.Line > 0 {
				loc.Region = &sarifRegion{StartLine: f.Line}
				if f.end > f.start {
					loc.Region.StartColumn = utf8.RuneCountInString(f.text[:f.start]) + 1
					loc.Region.EndColumn = loc.Region.StartColumn + utf8.RuneCountInString(f.text[f.start:f.end])
				}
			}
			r.Locations = []sarifLocation{{loc}}
		}
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}
