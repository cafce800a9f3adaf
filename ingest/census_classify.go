package ingest

import "github.com/robocensus/robocensus/robots"

// classify returns the difference class (schema.DifferenceClasses) that
// explains why a reading's verdict of q differs from Google's:
// robots.Explainer's class, whose names are the schema's. The explainer indexes the capture's lines on its first
// difference (most captures have none) and reuses its memory from capture
// to capture.
func (c *census) classify(f *robots.File, q robots.Question) string {
	return c.explainer.ExplainQuestion(f, q).Class.String()
}
