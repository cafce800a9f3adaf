package robots

import "hash/maphash"

// firstTable is an open-addressing hash table for the duplicate checks: it
// maps a string to the index of its first occurrence in a list the caller
// keeps (the rules of a group, the agent lines of a file, the directories
// of a group's rules). It stores only the hash and the index, the caller
// compares the strings, and it is emptied at the cost of what it holds, not
// of the largest size it reached: a parse of a huge file leaves no cost to
// the next ones. It replaces Go maps, whose inserts, lookups and key by key
// deletes were a sixth of a parse.
type firstTable struct {
	slots  []uint64 // hash's top 32 bits << 32 | index+1; 0 when empty
	filled []int32  // the slots in use, to empty the table
}

// tableSeed seeds the hashes. It is per process: the table only tests
// equality, so nothing depends on the hash values.
var tableSeed = maphash.MakeSeed()

// hashString hashes s for a firstTable.
func hashString(s string) uint64 { return maphash.String(tableSeed, s) }

// hashFold hashes s with ASCII letters folded to lower case (FNV-1a: the
// agent tokens it hashes are short).
func hashFold(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h ^ h>>29
}

// minTableSlots is the size of a table when first used.
const minTableSlots = 64

// find looks up a string of hash h: eq reports whether the string at an
// index of the caller's list is the one looked for. It returns the index of
// the first equal string, or -1 and the slot where insert puts it.
func (t *firstTable) find(h uint64, eq func(int32) bool) (index int32, slot int) {
	if len(t.slots) == 0 {
		t.slots = make([]uint64, minTableSlots)
	}
	mask := len(t.slots) - 1
	top := h >> 32
	for i := int(top) & mask; ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 {
			return -1, i
		}
		if e>>32 == top && eq(int32(uint32(e))-1) {
			return int32(uint32(e)) - 1, i
		}
	}
}

// insert records index for hash h at slot, which find returned with -1.
func (t *firstTable) insert(h uint64, index int32, slot int) {
	t.slots[slot] = h>>32<<32 | uint64(uint32(index+1))
	t.filled = append(t.filled, int32(slot))
	if 2*len(t.filled) > len(t.slots) {
		t.grow()
	}
}

// grow doubles the table. A slot holds only the top 32 bits of the hash,
// so those choose where an entry goes, in find as here.
func (t *firstTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	t.filled = t.filled[:0]
	mask := len(t.slots) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := int(e>>32) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = e
		t.filled = append(t.filled, int32(i))
	}
}

// reset empties the table, slot by slot; a table grown past maxScratch
// slots is dropped.
func (t *firstTable) reset() {
	if len(t.slots) > maxScratch {
		t.slots, t.filled = nil, t.filled[:0]
		return
	}
	for _, i := range t.filled {
		t.slots[i] = 0
	}
	t.filled = t.filled[:0]
}
