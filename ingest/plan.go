package ingest

import (
	"github.com/robocensus/robocensus/ingest/dataset"
	"github.com/robocensus/robocensus/schema"
)

// Planned is an input of a run as [Plan] sees it, before anything is read.
type Planned struct {
	Input  string // the file or URL read
	Folder string // the folder named as an input that it is a file of, or ""
	Read   bool   // the run reads it
	// Why says why the run does not read it: "done" (committed by an
	// earlier, interrupted run or by another shard, or read to its end in
	// the published partition, which a rerun keeps), "other shard", or,
	// for a published input the run is not given, "kept not named" (its
	// rows are kept as published) or "dropped" (Config.DropMissing).
	Why string
	// Skip is the reason a file of a folder will be recorded as skipped,
	// when its name or kind tells (a Skip* constant), or "".
	Skip string
}

// Plan lists the inputs a run of cfg over inputs would read, and those it
// would not with the reason, without reading or writing anything: folders
// are expanded into their files, inputs given twice are listed once, and
// the published inputs of the run's shard it is not given follow, kept or
// dropped.
func Plan(cfg Config, inputs []string) ([]Planned, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	files, folderOf := expandFolders(inputs)
	all := dedupe(files, cfg.Logger)
	segs, err := dataset.NewWork(cfg.Dir, cfg.Crawl, cfg.Shard).Committed()
	if err != nil {
		return nil, err
	}
	published, err := dataset.PublishedInputs(cfg.Dir, cfg.Crawl)
	if err != nil {
		return nil, err
	}
	done := doneInputs(segs)
	sorted := dataset.Carry{Fresh: cfg.Fresh, DropMissing: cfg.DropMissing}.Sort(published, all)
	for _, in := range sorted.Keep {
		// A rerun of a published crawl keeps what it read to its end (see
		// rerun.go's keepPublished).
		done[in.Input] = in
	}
	var out []Planned
	for _, in := range all {
		why := whyNotRead(in, done, cfg.Shard)
		p := Planned{Input: in, Folder: folderOf[in], Read: why == "", Why: why}
		if p.Folder != "" {
			p.Skip = skippedByName(in)
		}
		out = append(out, p)
	}
	out = appendPublished(out, sorted.Unnamed, "kept not named", cfg.Shard)
	return appendPublished(out, sorted.Dropped, "dropped", cfg.Shard), nil
}

// appendPublished appends the published inputs of rows that the shard
// has, not read for the reason why.
func appendPublished(out []Planned, rows []schema.Input, why string, shard dataset.Shard) []Planned {
	for _, row := range rows {
		if shard.Has(row.Input) {
			out = append(out, Planned{Input: row.Input, Why: why})
		}
	}
	return out
}

// whyNotRead says why a run does not read an input, or "" when it does.
func whyNotRead(in string, done map[string]schema.Input, shard dataset.Shard) string {
	if _, ok := done[in]; ok {
		return "done"
	}
	if !shard.Has(in) {
		return "other shard"
	}
	return ""
}
