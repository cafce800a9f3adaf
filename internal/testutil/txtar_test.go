package testutil

import "testing"

func TestParseArchive(t *testing.T) {
	a := ParseArchive("comment\n-- a --\nx\ny\n-- b.txt --\n-- c --\nz")
	if a.Comment != "comment\n" || a.Files["a"] != "x\ny\n" || a.Files["b.txt"] != "" || a.Files["c"] != "z\n" {
		t.Errorf("%+v", a)
	}
	if len(a.Order) != 3 || a.Order[1] != "b.txt" {
		t.Errorf("order %v", a.Order)
	}
}
