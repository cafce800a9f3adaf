package engine

import (
	"context"

	"github.com/robocensus/robocensus/analyze/internal/scan"
)

// crawl computes the figures of one crawl partition. First the tables the
// sections read once (sitemaps, inputs, hosts, ...). Then its captures are
// split into host batches processed one after the other; each batch makes
// passes over the tables (captures, which indexes the batch's captures and
// hosts; diagnostics and rules, which mark them; agents; captures again for
// the hosts), and what it counts is added to the crawl's figures before
// the next batch starts. The first batch also counts what needs no capture
// state over every row. Then the hosts the sections chose once every host
// was counted, in the batches before the last, and the few bodies shown.
//
// The crawl's captures (a count from the footers) are split into batches
// host batches. Each section finishes (Finish) with the accumulator
// that its workers' were merged into.
func Run(ctx context.Context, d *scan.Dataset, label string, p Params, jobs []*Section, captures int64, batches int) error {
	s, err := newCrawlState(d, label, p, jobs, captures, batches)
	if err != nil {
		return err
	}
	if err := s.sectionsPass(ctx); err != nil {
		return err
	}
	for i := range s.batches {
		if err := s.batchPasses(ctx, s.newBatch(i, roundMain)); err != nil {
			return err
		}
	}
	if err := s.chosenHosts(ctx); err != nil {
		return err
	}
	if err := s.secs.readBodies(ctx, s.d, s.label); err != nil {
		return err
	}
	s.secs.finish()
	return nil
}

// sectionsPass reads the tables the sections need that the batches' passes
// do not read (sitemaps, inputs, hosts, ...): before the batches, so that
// a section may join one of them with a table the passes feed.
func (s *crawlState) sectionsPass(ctx context.Context) error {
	return s.secs.scanTables(ctx, s.d, s.label)
}

// batchPasses makes the passes of one batch. After the last batch's
// marks, every host is counted: the sections that rank hosts choose those
// they want fed again, and the last batch's hosts pass feeds its own.
func (s *crawlState) batchPasses(ctx context.Context, hb *batch) error {
	steps := []func(context.Context, *batch) error{s.capturesPass, s.weightsPass, s.diagnosticsPass, s.rulesPass, s.finishMarks, s.marksFeed}
	if hb.index == hb.of-1 {
		steps = append(steps, s.choose)
	}
	steps = append(steps, s.makeTallies, s.agentsPass, s.hostTablesPass, s.hostsPass)
	for _, step := range steps {
		if err := step(ctx, hb); err != nil {
			return err
		}
	}
	return nil
}
