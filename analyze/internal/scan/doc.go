// Package scan reads a robocensus dataset for the reports: its crawls
// (the partitions of the captures table, oldest first), their Parquet
// files split into runs of row groups that several goroutines share
// (Dataset.Scan), and the typed Arrow columns of each record (Columns,
// DictColumn). It also reads what the reports join with the dataset: the
// crawler list a crawl was classified with, the few bodies a report
// shows, and a ranked host list (Ranks).
//
// To read a new table or column, name it in a Spec; to read a new kind of
// column, add a getter to Columns.
package scan
