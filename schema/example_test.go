package schema_test

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/apache/arrow/go/v15/arrow/array"

	"github.com/robocensus/robocensus/robots"
	"github.com/robocensus/robocensus/schema"
)

// Write a captures file, then read three of its columns back with Arrow.
// Ingest writes to a temporary file in the partition directory and renames
// it to its part name once Close has succeeded.
func ExampleNewWriter() {
	var file bytes.Buffer
	w := schema.NewWriter[schema.Capture](&file, schema.WithMetadata("robocensus.crawl", "CC-MAIN-2025-05"))
	rows := []schema.Capture{
		{
			CaptureID: "1", URL: "https://example.com/robots.txt", URLHostName: "example.com",
			FetchTime: time.Date(2025, 1, 13, 4, 5, 6, 0, time.UTC), FetchStatus: 200,
			Outcome: "rules", RuleCount: 2, UserAgents: []string{"*"}, WARCFilename: "a.warc.gz",
		},
		{CaptureID: "2", URL: "robots.txt", Outcome: "unknown", WARCFilename: "bodies.tar"}, // no status: NULL
	}
	if _, err := w.Write(rows); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}

	r, err := schema.NewArrowReader(bytes.NewReader(file.Bytes()), int64(file.Len()),
		schema.WithTable("captures"), schema.WithColumns("capture_id", "fetch_status", "outcome"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	fmt.Println(r.Table().Name, r.Version(), r.NumRows(), r.Metadata("robocensus.crawl"))
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		ids, status, outcome := rec.Column(0).(*array.String), rec.Column(1).(*array.Int32), rec.Column(2).(*array.String)
		for i := range int(rec.NumRows()) {
			fmt.Println(ids.Value(i), status.ValueStr(i), outcome.Value(i))
		}
	}
	// Output:
	// captures 2.3 2 CC-MAIN-2025-05
	// 1 200 rules
	// 2 (null) unknown
}

// Read the repetitive string columns of the agents table as dictionaries:
// each row is an index in the distinct values of its row group, which are
// decoded once.
func ExampleWithDictionary() {
	var file bytes.Buffer
	w := schema.NewAgentsWriter(&file, []string{"GPTBot", "CCBot"})
	for _, id := range []string{"c1", "c2"} {
		if err := w.Add(id, "example.com", []bool{true, false}, []robots.Access{robots.AccessDisallowed, robots.AccessAllowed},
			[]robots.Via{robots.ViaNamed, robots.ViaStar}, []robots.VerdictSource{robots.SourceSite, robots.SourceNone}, []bool{false, false}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	r, err := schema.NewArrowReader(bytes.NewReader(file.Bytes()), int64(file.Len()),
		schema.WithColumns("capture_id", "agent", "verdict"), schema.WithDictionary("agent", "verdict"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	rec, err := r.Next()
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, agents := rec.Column(0).(*array.String), rec.Column(1).(*array.Dictionary)
	names := agents.Dictionary().(*array.String)
	fmt.Println("agent dictionary:", names)
	for i := range int(rec.NumRows()) {
		fmt.Println(ids.Value(i), agents.GetValueIndex(i), names.Value(agents.GetValueIndex(i)), rec.Column(2).(*array.Dictionary).ValueStr(i))
	}
	// Output:
	// agent dictionary: ["GPTBot" "CCBot"]
	// c1 0 GPTBot disallowed
	// c1 1 CCBot allowed
	// c2 0 GPTBot disallowed
	// c2 1 CCBot allowed
}

func ExamplePartitionDir() {
	dir := schema.PartitionDir("robocensus-data", schema.TableName[schema.Rule](), "CC-MAIN-2025-05")
	fmt.Println(filepath.ToSlash(filepath.Join(dir, schema.PartName(0))))
	fmt.Println(filepath.ToSlash(schema.Glob("robocensus-data", "rules")))
	// Output:
	// robocensus-data/rules/crawl=CC-MAIN-2025-05/part-00000.parquet
	// robocensus-data/rules/**/*.parquet
}

func ExampleCheckVersion() {
	for _, v := range []string{"1.3", "2.0", "2.4", "3.0", ""} {
		fmt.Printf("%q: %v\n", v, schema.CheckVersion(v))
	}
	// Output:
	// "1.3": <nil>
	// "2.0": <nil>
	// "2.4": <nil>
	// "3.0": schema: unknown schema version: "3.0", this reader knows major versions 1 to 2
	// "": schema: file has no robocensus.schema_version
}
