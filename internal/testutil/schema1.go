package testutil

import "strings"

// added2 are the captures columns schema 2.0 added (Common Crawl's index
// columns); files of schema 1.x lack them.
var added2 = []string{"url_surtkey", "url_host_tld", "url_host_registered_domain", "url_protocol", "url_port", "content_charset", "warc_segment"}

// added21 are the captures columns schema 2.1 added (issue 27: the
// payload's real size); files of 1.x and 2.0 lack them.
var added21 = []string{"payload_length_real"}

// Schema1Select is the DuckDB select list that turns the rows of a 2.0
// table into those a schema 1.x file holds: the columns 2.0 renamed
// (renamed: schema.RenamedColumns(table), given by the caller because
// testutil may not import schema, whose package imports robots, whose
// tests use testutil) under their old names, and without the columns 2.0
// and 2.1 added. "*" for a table 2.0 left as it was.
func Schema1Select(table string, renamed [][2]string) string {
	var exclude []string
	if table == "captures" {
		exclude = append(append(exclude, added2...), added21...)
	}
	var as []string
	for _, r := range renamed {
		exclude = append(exclude, r[0])
		as = append(as, r[0]+" AS "+r[1])
	}
	if len(exclude) == 0 {
		return "*"
	}
	return "* EXCLUDE (" + strings.Join(exclude, ", ") + ")" + strings.TrimSuffix(", "+strings.Join(as, ", "), ", ")
}
