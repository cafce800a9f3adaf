package schema_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/robocensus/robocensus/internal/testutil"
	"github.com/robocensus/robocensus/schema"
)

// DuckDB is the reader the dataset is made for (DESIGN.md, "Dataset"), so
// these tests read the fixture dataset with a real DuckDB, the way a
// researcher would. They skip only in a build without cgo, which has no
// DuckDB (testutil.OpenDuckDB).

// wantTypes is the contract of DESIGN.md: every column of every table with
// the type DESCRIBE must show, in order, ending with crawl, which DuckDB
// takes from the Hive partition path.
var wantTypes = map[string]string{
	"captures": "capture_id VARCHAR, url VARCHAR, url_host_name VARCHAR, url_surtkey VARCHAR, " +
		"url_host_tld VARCHAR, url_host_registered_domain VARCHAR, url_protocol VARCHAR, url_port INTEGER, " +
		"fetch_time TIMESTAMP, fetch_status INTEGER, content_mime_type VARCHAR, content_mime_detected VARCHAR, " +
		"content_charset VARCHAR, payload_length BIGINT, payload_length_real BIGINT, content_digest VARCHAR, content_truncated VARCHAR, oversize BOOLEAN, " +
		"warc_filename VARCHAR, warc_record_offset BIGINT, warc_record_length BIGINT, warc_segment VARCHAR, " +
		"warc_record_id VARCHAR, fetch_redirect VARCHAR, outcome VARCHAR, line_count INTEGER, " +
		"group_count INTEGER, rule_count INTEGER, allow_count INTEGER, disallow_count INTEGER, " +
		"sitemap_count INTEGER, wildcard_rule_count INTEGER, error_count INTEGER, " +
		"warning_count INTEGER, info_count INTEGER, user_agents VARCHAR[], " +
		"star_disallows_all BOOLEAN, input VARCHAR, crawl VARCHAR",
	"diagnostics": "capture_id VARCHAR, url_host_name VARCHAR, line INTEGER, code VARCHAR, " +
		"severity VARCHAR, text VARCHAR, message VARCHAR, crawl VARCHAR",
	"rules": "capture_id VARCHAR, url_host_name VARCHAR, group_index INTEGER, user_agents VARCHAR[], " +
		"directive VARCHAR, pattern VARCHAR, line INTEGER, has_wildcard BOOLEAN, " +
		"has_end_anchor BOOLEAN, crawl VARCHAR",
	"sitemaps": "capture_id VARCHAR, url_host_name VARCHAR, url VARCHAR, line INTEGER, " +
		"valid BOOLEAN, crawl VARCHAR",
	"agents": "capture_id VARCHAR, url_host_name VARCHAR, agent VARCHAR, named BOOLEAN, " +
		"verdict VARCHAR, via VARCHAR, source VARCHAR, cancelled BOOLEAN, crawl VARCHAR",
	"inputs": "input VARCHAR, bytes BIGINT, records BIGINT, captures BIGINT, skipped BIGINT, " +
		"skipped_by_reason VARCHAR, damage_events BIGINT, damage VARCHAR, " +
		"error VARCHAR, started TIMESTAMP, finished TIMESTAMP, length_unknown BOOLEAN, crawl VARCHAR",
	"bodies": "content_digest VARCHAR, body VARCHAR, crawl VARCHAR",
	"directives": "capture_id VARCHAR, url_host_name VARCHAR, line INTEGER, group_index INTEGER, " +
		"user_agents VARCHAR[], key VARCHAR, value VARCHAR, valid BOOLEAN, crawl VARCHAR",
	"preferences": "capture_id VARCHAR, url_host_name VARCHAR, line INTEGER, source VARCHAR, " +
		"user_agents VARCHAR[], path VARCHAR, category VARCHAR, value VARCHAR, allowed BOOLEAN, crawl VARCHAR",
	"hosts": "url_host_name VARCHAR, url_host_registered_domain VARCHAR, capture_id VARCHAR, captures INTEGER, redirect_hops INTEGER, " +
		"redirect_result VARCHAR, effective_capture_id VARCHAR, effective_outcome VARCHAR, fetch_class VARCHAR, crawl VARCHAR",
	"readings": "capture_id VARCHAR, url_host_name VARCHAR, agent VARCHAR, semantics VARCHAR, root_allowed BOOLEAN, blocked BOOLEAN, " +
		"line INTEGER, google_root_allowed BOOLEAN, google_blocked BOOLEAN, google_line INTEGER, path VARCHAR, class VARCHAR, crawl VARCHAR",
	"templates": "capture_id VARCHAR, url_host_name VARCHAR, template VARCHAR, version VARCHAR, line_start INTEGER, line_end INTEGER, state VARCHAR, " +
		"site_lines INTEGER, similarity DOUBLE, missing VARCHAR[], released VARCHAR, crawl VARCHAR",
}

// openDuckDB writes the fixture dataset and opens an in-memory DuckDB with
// one view per table over read_parquet(<Glob>, hive_partitioning = true).
func openDuckDB(t *testing.T) (*sql.DB, string) {
	t.Helper()
	dir := t.TempDir()
	writeDataset(t, dir)
	db := testutil.OpenDuckDB(t)
	for _, table := range schema.Tables() {
		exec(t, db, fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet(%s, hive_partitioning = true)",
			table.Name, quote(schema.Glob(dir, table.Name))))
	}
	return db, dir
}

func TestDuckDBDescribe(t *testing.T) {
	db, _ := openDuckDB(t)
	for _, table := range schema.Tables() {
		t.Run(table.Name, func(t *testing.T) {
			if got := describe(t, db, table.Name); got != wantTypes[table.Name] {
				t.Errorf("DESCRIBE %s:\n got %s\nwant %s", table.Name, got, wantTypes[table.Name])
			}
		})
	}
}

// TestDuckDBQueries runs queries that each return one string.
func TestDuckDBQueries(t *testing.T) {
	db, dir := openDuckDB(t)
	tests := []struct {
		name, query, want string
	}{
		// crawl comes from the path, and each partition has its rows.
		{"captures per crawl", "SELECT string_agg(crawl || '=' || n, ' ' ORDER BY crawl) FROM (SELECT crawl, count(*) n FROM captures GROUP BY ALL)",
			"CC-MAIN-2025-05=3 CC-MAIN-2025-08=1"},
		{"diagnostics per crawl", "SELECT string_agg(crawl || '=' || n, ' ' ORDER BY crawl) FROM (SELECT crawl, count(*) n FROM diagnostics GROUP BY ALL)",
			"CC-MAIN-2025-05=4 CC-MAIN-2025-08=1"},
		{"rules per crawl (B is an empty file)", "SELECT string_agg(crawl || '=' || n, ' ' ORDER BY crawl) FROM (SELECT crawl, count(*) n FROM rules GROUP BY ALL)",
			"CC-MAIN-2025-05=4"},
		{"inputs per crawl", "SELECT string_agg(crawl || '=' || n, ' ' ORDER BY crawl) FROM (SELECT crawl, count(*) n FROM inputs GROUP BY ALL)",
			"CC-MAIN-2025-05=2 CC-MAIN-2025-08=1"},
		{"empty partition file has the columns", fmt.Sprintf("SELECT count(*) || ' ' || count(user_agents) FROM read_parquet(%s)",
			quote(filepath.Join(schema.PartitionDir(dir, "rules", crawlB), "*.parquet"))), "0 0"},

		// NULLs are NULL, zeros and empty lists are not.
		{"capture NULLs", `SELECT concat_ws(' ', fetch_time IS NULL, fetch_status IS NULL, content_mime_type IS NULL,
			content_mime_detected IS NULL, content_digest IS NULL, content_truncated IS NULL, warc_record_id IS NULL,
			fetch_redirect IS NULL, url_surtkey IS NULL, url_host_tld IS NULL, url_host_registered_domain IS NULL,
			url_protocol IS NULL, url_port IS NULL, content_charset IS NULL, warc_segment IS NULL, payload_length_real IS NULL) FROM captures WHERE capture_id = 'a-2'`,
			"true true true true true true true true true true true true true true true true"},
		{"capture Common Crawl columns", `SELECT concat_ws(' ', url_surtkey, url_host_tld, url_host_registered_domain, url_protocol,
			url_port, content_charset, warc_segment) FROM captures WHERE capture_id = 'a-1'`,
			"com,example:8443)/robots.txt com example.com https 8443 utf-8 1736520000000.10"},
		{"capture zeros are not NULL", `SELECT concat_ws(' ', payload_length, warc_record_offset, line_count, oversize,
			user_agents IS NULL, len(user_agents), url_host_name IS NULL) FROM captures WHERE capture_id = 'a-2'`, "0 0 0 false false 0 false"},
		{"payload_length_real 0 is not NULL", "SELECT payload_length_real FROM captures WHERE capture_id = 'b-1'", "0"},
		{"capture values are not NULL", `SELECT count(*) FROM captures WHERE capture_id = 'a-1' AND fetch_status = 200
			AND content_mime_type = 'text/plain' AND content_truncated IS NULL AND warc_record_id LIKE '<urn:uuid:%>'`, "1"},
		{"empty list in crawl B", "SELECT user_agents::VARCHAR FROM captures WHERE capture_id = 'b-1'", "[]"},
		{"text NULL for line 0", "SELECT string_agg(line || ':' || (text IS NULL), ' ' ORDER BY line) FROM diagnostics WHERE capture_id = 'a-1'",
			"0:true 3:false 4:false"},
		{"inputs error", "SELECT string_agg(input || ':' || coalesce(error, 'NULL'), ' ' ORDER BY input) FROM inputs",
			"a.warc.gz:NULL b.warc.gz:NULL bodies.tar:unexpected EOF"},
		{"directive group NULL outside any group, 0 is a group", "SELECT string_agg(line || ':' || coalesce(group_index::VARCHAR, 'NULL') || ':' || len(user_agents), ' ' ORDER BY capture_id, line) FROM directives",
			"1:NULL:0 5:0:1 2:1:2"},
		{"preference allowed NULL when not understood", "SELECT string_agg(category || ':' || coalesce(allowed::VARCHAR, 'NULL'), ' ' ORDER BY capture_id, category) FROM preferences",
			"ai-train:false search:true train-ai:NULL"},
		{"host effective capture NULL when unresolved", "SELECT string_agg(url_host_name || ':' || coalesce(effective_capture_id, 'NULL') || ':' || fetch_class, ' ' ORDER BY url_host_name) FROM hosts",
			"bücher.example:NULL:redirect-not-resolved example.com:a-1:robots-with-rules"},

		// Values come back exact.
		{"unicode host and list", "SELECT url_host_name || ' ' || user_agents::VARCHAR FROM captures WHERE capture_id = 'a-3'",
			"bücher.example [😀bot, Ünïcødé, '', *]"},
		{"list equality", "SELECT count(*) FROM captures WHERE user_agents = ['*', 'GPTBot']", "1"},
		{"extremes", "SELECT concat_ws(' ', warc_record_offset, line_count, oversize, strlen(fetch_redirect), payload_length_real) FROM captures WHERE capture_id = 'a-3'",
			"9223372036854775807 2147483647 true 2035 9223372036854775807"},
		{"long pattern", "SELECT max(strlen(pattern)) FROM rules", "16663"},
		{"clipped text", "SELECT max(strlen(text)) <= 200 AND max(strlen(text)) > 190 FROM diagnostics", "true"},
		{"timestamp in UTC, microseconds", "SELECT strftime(fetch_time, '%Y-%m-%d %H:%M:%S.%f') FROM captures WHERE capture_id = 'a-1'",
			"2025-01-13 04:05:06.123456"},
		{"duration", "SELECT (finished - started)::VARCHAR FROM inputs WHERE input = 'a.warc.gz'", "00:01:30"},

		// capture_id joins every table to captures, within the crawl.
		{"joins", `SELECT concat_ws(' ',
			(SELECT count(*) FROM diagnostics JOIN captures c USING (capture_id, crawl)),
			(SELECT count(*) FROM rules JOIN captures c USING (capture_id, crawl)),
			(SELECT count(*) FROM sitemaps JOIN captures c USING (capture_id, crawl)),
			(SELECT count(*) FROM agents JOIN captures c USING (capture_id, crawl)),
			(SELECT count(*) FROM captures JOIN inputs USING (input, crawl)))`, "5 4 2 4 4"},
		{"no orphans", `SELECT count(*) FROM (SELECT capture_id FROM diagnostics UNION ALL SELECT capture_id FROM rules
			UNION ALL SELECT capture_id FROM sitemaps UNION ALL SELECT capture_id FROM agents) x
			ANTI JOIN captures USING (capture_id)`, "0"},
		{"capture_id unique", "SELECT count(*) = count(DISTINCT capture_id) FROM captures", "true"},
		{"rule counts agree", `SELECT c.rule_count = count(*) FROM captures c JOIN rules r USING (capture_id)
			WHERE capture_id = 'a-1' GROUP BY c.rule_count`, "true"},

		// The queries of the package documentation.
		{"doc: GPTBot per crawl", `SELECT string_agg(crawl || '=' || blocked, ' ' ORDER BY crawl) FROM (
			SELECT crawl, avg((verdict = 'disallowed')::INT) AS blocked
			FROM agents WHERE agent = 'GPTBot' GROUP BY crawl ORDER BY crawl)`, "CC-MAIN-2025-05=0.0 CC-MAIN-2025-08=1.0"},
		{"doc: kv metadata", fmt.Sprintf(`SELECT string_agg(decode(key) || '=' || decode(value), ' ' ORDER BY decode(key)) FROM
			parquet_kv_metadata(%s) WHERE file_name LIKE %s`, quote(schema.Glob(dir, "captures")), quote("%"+crawlB+"%")),
			"robocensus.crawl=CC-MAIN-2025-08 robocensus.schema_version=" + schema.Version + " robocensus.table=captures"},

		// The files say what they are.
		{"schema version", fmt.Sprintf(`SELECT string_agg(DISTINCT decode(value), ' ') FROM parquet_kv_metadata(%s)
			WHERE decode(key) = 'robocensus.schema_version'`, quote(schema.Glob(dir, "*"))), schema.Version},
		{"table key", fmt.Sprintf(`SELECT string_agg(DISTINCT decode(value), ' ' ORDER BY decode(value)) FROM parquet_kv_metadata(%s)
			WHERE decode(key) = 'robocensus.table'`, quote(schema.Glob(dir, "*"))), "agents bodies captures diagnostics directives hosts inputs preferences readings rules sitemaps templates"},
		{"zstd everywhere", fmt.Sprintf("SELECT string_agg(DISTINCT compression, ' ') FROM parquet_metadata(%s)",
			quote(schema.Glob(dir, "*"))), "ZSTD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got sql.NullString
			if err := db.QueryRow(tt.query).Scan(&got); err != nil {
				t.Fatalf("%s\n%v", tt.query, err)
			}
			if got.String != tt.want {
				t.Errorf("got %q, want %q\n%s", got.String, tt.want, tt.query)
			}
		})
	}
}

// TestDuckDBDictionaries checks with DuckDB's parquet_metadata that exactly
// the columns tagged dict have a dictionary page.
func TestDuckDBDictionaries(t *testing.T) {
	db, dir := openDuckDB(t)
	for _, table := range schema.Tables() {
		t.Run(table.Name, func(t *testing.T) {
			var got []string
			rows := query(t, db, fmt.Sprintf(`SELECT DISTINCT path_in_schema FROM parquet_metadata(%s)
				WHERE dictionary_page_offset IS NOT NULL ORDER BY ALL`, quote(schema.Glob(dir, table.Name))))
			for _, r := range rows {
				got = append(got, strings.Split(r, ",")[0]) // user_agents,list,element
			}
			if want := dictColumns(table); !slices.Equal(got, want) {
				t.Errorf("dictionary columns %v, tagged %v", got, want)
			}
		})
	}
}

// dictColumns lists the columns whose tag (or list element tag) has dict.
func dictColumns(table schema.Table) []string {
	var out []string
	for _, row := range []any{schema.Capture{}, schema.Diagnostic{}, schema.Rule{}, schema.Sitemap{}, schema.Agent{}, schema.Input{}, schema.Body{}, schema.Directive{}, schema.Preference{}, schema.Host{}, schema.Reading{}, schema.TemplateBlock{}} {
		if parquet.SchemaOf(row).Name() != table.Parquet.Name() {
			continue
		}
		rt := reflect.TypeOf(row)
		for i := range rt.NumField() {
			tag, elem := rt.Field(i).Tag.Get("parquet"), rt.Field(i).Tag.Get("parquet-element")
			if strings.Contains(tag+","+elem, ",dict") {
				out = append(out, strings.Split(tag, ",")[0])
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestDuckDBInvalidUTF8 is why [schema.Writer.Write] repairs strings:
// DuckDB refuses a file with a string that is not UTF-8, and robots.txt
// files in legacy encodings are common.
func TestDuckDBInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	row := schema.Diagnostic{CaptureID: "x", Line: 1, Code: "invalid-utf8", Severity: "warning", Text: "Disallow: /gr\xf6\xdfe"}

	raw := filepath.Join(dir, "raw.parquet")
	if err := parquet.WriteFile(raw, []schema.Diagnostic{row}); err != nil {
		t.Fatal(err)
	}
	ours := writePart(t, dir, crawlA, []schema.Diagnostic{row})

	db := testutil.OpenDuckDB(t)
	var text string
	if err := db.QueryRow("SELECT text FROM read_parquet(" + quote(raw) + ")").Scan(&text); err == nil {
		t.Errorf("DuckDB read invalid UTF-8 as %q; the repair in Write may no longer be needed", text)
	}
	if err := db.QueryRow("SELECT text FROM read_parquet(" + quote(ours) + ")").Scan(&text); err != nil {
		t.Fatal(err)
	}
	if want := "Disallow: /gr\uFFFDe"; text != want {
		t.Errorf("text = %q, want %q", text, want)
	}
}

// TestDuckDBDateLabels shows the trap CheckCrawl documents: DuckDB types a
// partition value that looks like a date as DATE, unless told otherwise.
func TestDuckDBDateLabels(t *testing.T) {
	dir := t.TempDir()
	writePart(t, dir, "2025-11-22", fixtureB().inputs)
	db := testutil.OpenDuckDB(t)
	glob := quote(schema.Glob(dir, "inputs"))
	for hint, want := range map[string]string{"": "DATE", ", hive_types = {'crawl': VARCHAR}": "VARCHAR"} {
		var got string
		if err := db.QueryRow("SELECT typeof(crawl) FROM read_parquet(" + glob + ", hive_partitioning = true" + hint + ")").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("read_parquet(...%s): crawl is %s, want %s", hint, got, want)
		}
	}
}

// describe returns "name TYPE, ..." for a table or view.
func describe(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	rows, err := db.Query("DESCRIBE " + name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		var colName, colType string
		vals[0], vals[1] = &colName, &colType
		for i := 2; i < len(vals); i++ {
			vals[i] = new(any)
		}
		if err := rows.Scan(vals...); err != nil {
			t.Fatal(err)
		}
		out = append(out, colName+" "+colType)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, ", ")
}

// query returns the first column of every row, as strings.
func query(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s\n%v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func exec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s\n%v", q, err)
	}
}

// quote makes a SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
