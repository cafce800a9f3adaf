package dataset

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// The dataset on disk. A run writes its part files under a staging folder,
// DIR/.staging/RUN/<table>/crawl=<label>/, invisible to a glob of
// DIR/<table>/**. When every part is closed, each table's partition folder
// is swapped in by renames: a reader sees the old partition or the new one,
// never a part of either.

// Staging is the folder of the staged parts of one run. Every part it
// writes is compressed with compression (see Work.SetCompression).
type Staging struct {
	root, crawl, path string
	whole             []WholePart // the published parts copied whole into it (copyPart)
	compression       schema.Compression
}

func newStaging(root, crawl string, compression schema.Compression) (*Staging, error) {
	path := filepath.Join(root, ".staging", crawl+"-"+randomHex(6))
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("dataset: creating staging folder: %w", err)
	}
	return &Staging{root: root, crawl: crawl, path: path, compression: compression}, nil
}

// writerOptions are the options of every part the staging writes, with
// more.
func (s *Staging) writerOptions(more ...schema.WriterOption) []schema.WriterOption {
	return append(more, schema.WithMetadata("robocensus.crawl", s.crawl), schema.WithCompression(s.compression))
}

// randomHex returns n random bytes in hexadecimal.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// partitionDir returns the staged partition folder of a table.
func (s *Staging) partitionDir(table string) string {
	return schema.PartitionDir(s.path, table, s.crawl)
}

// create opens a new part file of table.
func (s *Staging) create(table, name string) (*os.File, error) {
	dir := s.partitionDir(table)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.Create(filepath.Join(dir, name))
}

// commit replaces each table's partition with the staged one. Tables with
// no staged folder are left alone.
func (s *Staging) commit() error {
	for _, t := range schema.Tables() {
		staged := s.partitionDir(t.Name)
		if _, err := os.Stat(staged); err != nil {
			continue
		}
		if err := swapDir(staged, schema.PartitionDir(s.root, t.Name, s.crawl)); err != nil {
			return fmt.Errorf("dataset: publishing %s: %w", t.Name, err)
		}
	}
	return s.discard()
}

// discard removes the staging folder.
func (s *Staging) discard() error {
	err := os.RemoveAll(s.path)
	if rest, _ := os.ReadDir(filepath.Dir(s.path)); len(rest) == 0 {
		os.Remove(filepath.Dir(s.path))
	}
	return err
}

// swapDir puts the folder src at dst, replacing what dst held: the old
// folder is first renamed aside, so dst is at every moment either the old
// folder or the new one.
func swapDir(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	old := dst + ".old-" + filepath.Base(filepath.Dir(filepath.Dir(src)))
	hadOld := true
	if err := os.Rename(dst, old); errors.Is(err, os.ErrNotExist) {
		hadOld = false
	} else if err != nil {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		if hadOld {
			os.Rename(old, dst)
		}
		return err
	}
	if hadOld {
		return os.RemoveAll(old)
	}
	return nil
}

// tableWriter writes the rows of one table to a part file.
type tableWriter[T schema.Row] struct {
	f *os.File
	w rowWriter[T]
}

// rowWriter is what a tableWriter writes with: a schema.Writer, or the
// rules and diagnostics tables' own schema.RulesWriter and
// schema.DiagnosticsWriter.
type rowWriter[T schema.Row] interface {
	Write(rows []T) (int, error)
	Flush() error
	Close() error
}

func openTable[T schema.Row](s *Staging, part string, opts ...schema.WriterOption) (*tableWriter[T], error) {
	f, err := s.create(schema.TableName[T](), part)
	if err != nil {
		return nil, err
	}
	opts = s.writerOptions(opts...)
	t := &tableWriter[T]{f: f}
	// The rules and diagnostics tables have the most rows a capture: their
	// own writers write the files schema.Writer would, in a fraction of
	// the time (issue 12).
	switch tw := any(t).(type) {
	case *tableWriter[schema.Rule]:
		tw.w = schema.NewRulesWriter(f, opts...)
	case *tableWriter[schema.Diagnostic]:
		tw.w = schema.NewDiagnosticsWriter(f, opts...)
	default:
		t.w = schema.NewWriter[T](f, opts...)
	}
	return t, nil
}

func (t *tableWriter[T]) write(rows []T) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := t.w.Write(rows)
	return err
}

// close finishes the part: footer, sync, close.
func (t *tableWriter[T]) close() error {
	err := t.w.Close()
	if err == nil {
		err = t.f.Sync()
	}
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// PartWriter writes a Rows to one part file per table.
type PartWriter struct {
	captures    *tableWriter[schema.Capture]
	diagnostics *tableWriter[schema.Diagnostic]
	rules       *tableWriter[schema.Rule]
	sitemaps    *tableWriter[schema.Sitemap]
	agents      *agentsWriter
	bodies      *tableWriter[schema.Body]
	directives  *tableWriter[schema.Directive]
	preferences *tableWriter[schema.Preference]
	readings    *tableWriter[schema.Reading]
	templates   *tableWriter[schema.TemplateBlock]
	closers     []func() error // of the files opened
	rows        int64          // captures written
	bodyBytes   int            // body bytes buffered in the current row group
}

// Sizes of the pipeline's part files. Small pages keep memory low with many
// columns open at once; bodies get short row groups because a body may be
// 500 KiB.
const (
	pipelinePageSize = 256 << 10
	// BodyRowGroupBytes ends a row group of the bodies table: rows are
	// flushed once the bodies buffered pass it.
	BodyRowGroupBytes = 8 << 20
	// FlushRows is how many rows a writer buffers before it writes them.
	FlushRows = 16 << 10
)

func NewPartWriter(s *Staging, name string, crawlers []robots.Crawler) (*PartWriter, error) {
	p := &PartWriter{}
	var err error
	p.captures, err = openPart[schema.Capture](p, s, name, err)
	p.diagnostics, err = openPart[schema.Diagnostic](p, s, name, err)
	p.rules, err = openPart[schema.Rule](p, s, name, err)
	p.sitemaps, err = openPart[schema.Sitemap](p, s, name, err)
	if err == nil && len(crawlers) > 0 {
		p.agents, err = openAgents(s, name, crawlers)
		if err == nil {
			p.closers = append(p.closers, p.agents.close)
		}
	}
	p.bodies, err = openPart[schema.Body](p, s, name, err)
	p.directives, err = openPart[schema.Directive](p, s, name, err)
	p.preferences, err = openPart[schema.Preference](p, s, name, err)
	p.readings, err = openPart[schema.Reading](p, s, name, err)
	p.templates, err = openPart[schema.TemplateBlock](p, s, name, err)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("dataset: opening part %s: %w", name, err)
	}
	return p, nil
}

// openPart opens the file of one table of the part, unless an earlier one
// failed (err).
func openPart[T schema.Row](p *PartWriter, s *Staging, name string, err error) (*tableWriter[T], error) {
	if err != nil {
		return nil, err
	}
	t, err := openTable[T](s, name, schema.WithPageBufferSize(pipelinePageSize))
	if err == nil {
		p.closers = append(p.closers, t.close)
	}
	return t, err
}

// write writes the rows of rs.
func (p *PartWriter) Write(rs *Rows) error {
	err := errors.Join(
		p.captures.write(rs.Captures), p.diagnostics.write(rs.Diagnostics), p.rules.write(rs.Rules),
		p.sitemaps.write(rs.Sitemaps), p.agents.write(&rs.Agents), p.bodies.write(rs.Bodies),
		p.directives.write(rs.Directives), p.preferences.write(rs.Preferences), p.readings.write(rs.Readings), p.templates.write(rs.Templates),
	)
	p.rows += int64(len(rs.Captures))
	if p.bodyBytes += rs.BodyBytes; p.bodyBytes >= BodyRowGroupBytes && err == nil {
		err = p.bodies.w.Flush()
		p.bodyBytes = 0
	}
	return err
}

// Rows returns the number of captures written.
func (p *PartWriter) Rows() int64 { return p.rows }

// Close finishes the part's files, all at once: each is synced, and the
// waits on the disk overlap.
func (p *PartWriter) Close() error {
	errs := make([]error, len(p.closers))
	var wg sync.WaitGroup
	for i, c := range p.closers {
		wg.Go(func() { errs[i] = c() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// agentsWriter writes the agents table of a part with schema.AgentsWriter.
type agentsWriter struct {
	f *os.File
	w *schema.AgentsWriter
	n int // crawlers per capture
}

// The footer records the crawler list (schema.CrawlersKey), so that the
// report uses the list the rows were classified with.
func openAgents(s *Staging, part string, crawlers []robots.Crawler) (*agentsWriter, error) {
	list, err := robots.MarshalCrawlers(crawlers)
	if err != nil {
		return nil, err
	}
	f, err := s.create(schema.TableName[schema.Agent](), part)
	if err != nil {
		return nil, err
	}
	tokens := make([]string, len(crawlers))
	for i, c := range crawlers {
		tokens[i] = c.Token
	}
	w := schema.NewAgentsWriter(f, tokens, s.writerOptions(schema.WithMetadata(schema.CrawlersKey, list))...)
	return &agentsWriter{f: f, w: w, n: len(crawlers)}, nil
}

func (a *agentsWriter) write(rows *AgentRows) error {
	if a == nil {
		return nil
	}
	for i := range rows.IDs {
		lo, hi := i*a.n, (i+1)*a.n
		if err := a.w.Add(rows.IDs[i], rows.Hosts[i], rows.Named[lo:hi], rows.Access[lo:hi], rows.Via[lo:hi], rows.Source[lo:hi], rows.Cancelled[lo:hi]); err != nil {
			return err
		}
	}
	return nil
}

func (a *agentsWriter) close() error {
	err := a.w.Close()
	if err == nil {
		err = a.f.Sync()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeEmpty writes a part with no rows for table, so that every table of
// a published crawl has a file DuckDB can describe.
func writeEmpty(s *Staging, table string) error {
	f, err := s.create(table, schema.PartName(0))
	if err != nil {
		return err
	}
	c := schema.WithCompression(s.compression)
	write := map[string]func() error{
		"captures":    func() error { return schema.NewWriter[schema.Capture](f, c).Close() },
		"diagnostics": func() error { return schema.NewWriter[schema.Diagnostic](f, c).Close() },
		"rules":       func() error { return schema.NewWriter[schema.Rule](f, c).Close() },
		"sitemaps":    func() error { return schema.NewWriter[schema.Sitemap](f, c).Close() },
		"agents":      func() error { return schema.NewWriter[schema.Agent](f, c).Close() },
		"bodies":      func() error { return schema.NewWriter[schema.Body](f, c).Close() },
		"inputs":      func() error { return schema.NewWriter[schema.Input](f, c).Close() },
		"directives":  func() error { return schema.NewWriter[schema.Directive](f, c).Close() },
		"preferences": func() error { return schema.NewWriter[schema.Preference](f, c).Close() },
		"hosts":       func() error { return schema.NewWriter[schema.Host](f, c).Close() },
		"readings":    func() error { return schema.NewWriter[schema.Reading](f, c).Close() },
		"templates":   func() error { return schema.NewWriter[schema.TemplateBlock](f, c).Close() },
	}[table]
	if write == nil {
		f.Close()
		return fmt.Errorf("dataset: no table %q", table)
	}
	return errors.Join(write(), f.Close())
}

// writeInputs writes the inputs table's single part.
func writeInputs(s *Staging, rows []schema.Input) error {
	t, err := openTable[schema.Input](s, schema.PartName(0))
	if err != nil {
		return err
	}
	if err := t.write(rows); err != nil {
		t.close()
		return err
	}
	return t.close()
}
