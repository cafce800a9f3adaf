//go:build !unix

package testutil

import "time"

// ProcessCPU is not measured on this system: it returns zero.
func ProcessCPU() time.Duration { return 0 }
