package hosts

import (
	"errors"
	"fmt"
	"strings"
)

// The errors of this package start with "hosts: ", once; an error of
// another package that one wraps keeps its own prefix after the context
// ("hosts: reading PATH: schema: ...").
const prefix = "hosts: "

// errSpillCorrupt is the error of a spill that ends in the middle of an
// entry.
var errSpillCorrupt = errors.New("hosts: spill file truncated or corrupt")

// prefixed returns err with "hosts: " and context in front, or err itself
// when it is one of this package's own and says "hosts: " already (its
// context is then left out, so that the prefix comes once).
func prefixed(context string, err error) error {
	if strings.HasPrefix(err.Error(), prefix) {
		return err
	}
	return fmt.Errorf("%s%s%w", prefix, context, err)
}
