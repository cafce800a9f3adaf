package ingest

import (
	"encoding/json"

	"github.com/robocensus/robocensus/ingest/archive"
)

// skippedJSON encodes skip counts as a JSON object with sorted keys.
func skippedJSON(m map[string]int64) string {
	if len(m) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(m) // maps marshal with sorted keys
	return string(b)
}

// damageJSON encodes the listed damage as a JSON array, "" when none.
func damageJSON(ds []archive.Damage) string {
	if len(ds) == 0 {
		return ""
	}
	type entry struct {
		Kind    string `json:"kind"`
		Offset  int64  `json:"offset"`
		Skipped int64  `json:"skipped"`
		Detail  string `json:"detail,omitempty"`
	}
	out := make([]entry, 0, min(len(ds), maxDamageJSON))
	for _, d := range ds[:min(len(ds), maxDamageJSON)] {
		out = append(out, entry{d.Kind, d.Offset, d.Skipped, d.Detail})
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// maxDamageJSON is how many damaged spots the inputs table lists per input.
const maxDamageJSON = 50
