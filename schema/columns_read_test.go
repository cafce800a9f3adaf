package schema_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/schema"
)

// inputColumns are three columns of the inputs table, read by
// TestReadColumns.
type inputColumns struct {
	Input    string
	Captures int64
	Error    string // "" for NULL
}

// inputFields read inputColumns.
var inputFields = []schema.ColumnField[inputColumns]{
	{Name: "input", Kind: parquet.ByteArray, Set: func(r *inputColumns, v *parquet.Value) { r.Input = string(v.ByteArray()) }},
	{Name: "captures", Kind: parquet.Int64, Set: func(r *inputColumns, v *parquet.Value) { r.Captures = v.Int64() }},
	{Name: "error", Kind: parquet.ByteArray, Set: func(r *inputColumns, v *parquet.Value) { r.Error = string(v.ByteArray()) }},
}

// TestReadColumns reads three columns of a file of several row groups and
// pages, with NULLs, and compares each row with what was written; a file
// without one of the columns, or with another kind, wraps
// ErrRenamedColumns; an error of the callback comes back as it is.
func TestReadColumns(t *testing.T) {
	var rows []schema.Input
	var want []inputColumns
	for i := range 5_432 {
		r := schema.Input{Input: fmt.Sprintf("in-%05d.warc.gz", i), Captures: int64(i * 3)}
		w := inputColumns{Input: r.Input, Captures: r.Captures}
		if i%4 == 0 { // else NULL
			r.Error = fmt.Sprintf("error %d", i)
			w.Error = r.Error
		}
		rows, want = append(rows, r), append(want, w)
	}
	var buf bytes.Buffer
	w := schema.NewWriter[schema.Input](&buf, schema.WithRowGroupRows(1_000), schema.WithPageBufferSize(4<<10))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	file := bytes.NewReader(buf.Bytes())
	var got []inputColumns
	groups := 0
	err := schema.ReadColumns(file, file.Size(), inputFields, func(rs []inputColumns) error {
		groups++
		got = append(got, rs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if groups < 4 || len(got) != len(want) {
		t.Fatalf("%d rows in %d row groups, want %d in 4 or more", len(got), groups, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("row %d: got %+v, want %+v", i, got[i], want[i])
		}
	}

	missing := append(inputFields[:2:2], schema.ColumnField[inputColumns]{Name: "no_such_column", Kind: parquet.Int64})
	wrongKind := append(inputFields[:2:2], schema.ColumnField[inputColumns]{Name: "error", Kind: parquet.Int64})
	for _, fields := range [][]schema.ColumnField[inputColumns]{missing, wrongKind} {
		err := schema.ReadColumns(file, file.Size(), fields, func([]inputColumns) error { return nil })
		if !errors.Is(err, schema.ErrRenamedColumns) {
			t.Errorf("%s of kind %s: error %v, want ErrRenamedColumns", fields[2].Name, fields[2].Kind, err)
		}
	}
	stop := errors.New("stop")
	if err := schema.ReadColumns(file, file.Size(), inputFields, func([]inputColumns) error { return stop }); err != stop {
		t.Errorf("the callback's error: got %v, want it as it is", err)
	}
}
