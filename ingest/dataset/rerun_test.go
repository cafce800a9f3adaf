package dataset

import (
	"slices"
	"strings"
	"testing"

	"github.com/robocensus/robocensus/schema"
)

// TestCarrySort: which published inputs a run keeps, drops or reads again
// (issue 27 item 3): an input not given is kept, failed or not, unless
// DropMissing drops it; an input given is kept when it was read to its
// end, unless Fresh; the partition is up to date when nothing is dropped
// and every input given is kept.
func TestCarrySort(t *testing.T) {
	published := []schema.Input{{Input: "a"}, {Input: "b"}, {Input: "c", Error: "cut short"}}
	tests := []struct {
		name     string
		carry    Carry
		given    []string
		keep     string // inputs kept (space-separated), of which unnamed, and dropped
		unnamed  string
		dropped  string
		upToDate bool
	}{
		{"all given", Carry{}, []string{"a", "b", "c"}, "a b", "", "", false},
		{"clean ones given", Carry{}, []string{"a", "b"}, "a b c", "c", "", true},
		{"one given", Carry{}, []string{"a"}, "a b c", "b c", "", true},
		{"one given and a new one", Carry{}, []string{"a", "d"}, "a b c", "b c", "", false},
		{"one given, drop missing", Carry{DropMissing: true}, []string{"a"}, "a", "", "b c", false},
		{"all given, drop missing", Carry{DropMissing: true}, []string{"a", "b"}, "a b", "", "c", false},
		{"fresh, one given", Carry{Fresh: true}, []string{"a"}, "b c", "b c", "", false},
		{"fresh, drop missing", Carry{Fresh: true, DropMissing: true}, []string{"a"}, "", "", "b c", false},
	}
	names := func(rows []schema.Input) string { return strings.Join(inputNames(rows), " ") }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.carry.Sort(slices.Clone(published), tc.given)
			if names(s.Keep) != tc.keep || names(s.Unnamed) != tc.unnamed || names(s.Dropped) != tc.dropped {
				t.Errorf("kept %q, unnamed %q, dropped %q; want %q, %q, %q", names(s.Keep), names(s.Unnamed), names(s.Dropped), tc.keep, tc.unnamed, tc.dropped)
			}
			if got := s.upToDate(tc.carry, tc.given); got != tc.upToDate {
				t.Errorf("up to date: %v, want %v", got, tc.upToDate)
			}
		})
	}
}
