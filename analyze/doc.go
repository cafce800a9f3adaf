// Package analyze is part of the robocensus pipeline; see DESIGN.md. It is being built.
package analyze
