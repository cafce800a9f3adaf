// Package engine runs the crawl report's sections over one crawl of a
// dataset: it splits the captures into host batches, makes the passes
// over the tables that index and mark them (the deciding capture of each
// host, redirects followed, the diagnostic codes of each capture), and
// feeds each section's accumulators, one per worker, what it Needs: a
// table of the dataset or a pseudo-table of what the passes found
// (marks, deciding and effective captures, chosen hosts, the rows of a
// table per host). Once a section's needs are fed, the workers'
// accumulators are merged and the section's Finish gets the result.
//
// A Section here is what the engine runs of a section: its Needs, New and
// Finish. Package sections holds the crawl report's sections and turns
// each into one; to add a kind of need, add a Table and feed it in the
// passes (feeds.go).
package engine
