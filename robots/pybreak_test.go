package robots

import "testing"

// hasPyBreak is true exactly where pySplitLines cuts a text: on every body
// of the shared corpus, and on texts with the lead bytes of Python's
// breaks that start none ('©', '’', a cut sequence).
func TestHasPyBreakIsPySplitLines(t *testing.T) {
	texts := []string{"a © b", "it’s", "x\u2028y", "x\u2029", "\u0085", "\xe2\x80", "\xc2", "a\vb", "a\fb", "\x1c", "\x1d", "\x1e", "plain\nlines\r\n"}
	for _, set := range loadCorpus(t) {
		for _, body := range set.bodies {
			texts = append(texts, string(body.Data))
		}
	}
	breaks := 0
	for _, text := range texts {
		split := pySplitLines(text) != nil
		if hasPyBreak(text) != split {
			t.Fatalf("hasPyBreak(%.80q) = %v, pySplitLines cuts it: %v", text, !split, split)
		}
		if split {
			breaks++
		}
	}
	if breaks < 7 {
		t.Errorf("%d texts with a break of Python's alone, want the 7 made for it at least", breaks)
	}
	t.Logf("%d texts, %d with a line break of Python's alone", len(texts), breaks)
}
