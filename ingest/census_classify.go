package ingest

import "github.com/robocensus/robocensus/robots"

// classify returns the difference class (schema.DifferenceClasses) that
// explains why a reading decides with line rl where Google decides with
// line gl (0: no rule decided): robots.Explainer's class, whose names are
// the schema's. The explainer indexes the capture's lines on its first
// difference (most captures have none) and reuses its memory from capture
// to capture.
func (c *census) classify(f *robots.File, gl, rl int) string {
	return c.explainer.Explain(f, gl, rl).Class.String()
}
