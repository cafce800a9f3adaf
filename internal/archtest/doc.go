// Package archtest holds the test that enforces the import rules of
// DESIGN.md: the statement of policy of which package may import which.
package archtest
