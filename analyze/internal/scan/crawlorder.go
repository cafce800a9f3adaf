package scan

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
)

// Crawls are ordered by time, not by label: a Common Crawl label by its
// year and ISO week (CC-MAIN-2025-05 is the week of Monday 27 January
// 2025), a label that is a date (2026-11-22, what ingest makes
// when the inputs name no crawl) by that date, and any other label by the
// earliest fetch time of its captures. Ties, and crawls whose captures have
// no fetch time, go by label.

var (
	ccLabel   = regexp.MustCompile(`^CC-MAIN-(\d{4})-(\d{2})$`)
	dateLabel = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// labelTime returns the time a crawl label names, if it names one.
func labelTime(label string) (time.Time, bool) {
	if m := ccLabel.FindStringSubmatch(label); m != nil {
		year, _ := strconv.Atoi(m[1])
		week, _ := strconv.Atoi(m[2])
		if week < 1 || week > 53 {
			return time.Time{}, false
		}
		return isoWeekMonday(year, week), true
	}
	if dateLabel.MatchString(label) {
		t, err := time.Parse(time.DateOnly, label)
		return t, err == nil
	}
	return time.Time{}, false
}

// isoWeekMonday returns the Monday of ISO week w of year y: week 1 is the
// week with the year's first Thursday, that is the week of 4 January.
func isoWeekMonday(y, w int) time.Time {
	jan4 := time.Date(y, time.January, 4, 0, 0, 0, 0, time.UTC)
	offset := (int(jan4.Weekday()) + 6) % 7 // days since Monday
	return jan4.AddDate(0, 0, -offset+(w-1)*7)
}

// orderCrawls sorts the dataset's crawls by time (see above).
func (d *Dataset) orderCrawls(ctx context.Context) error {
	at := make(map[string]time.Time, len(d.crawls))
	for _, c := range d.crawls {
		t, ok := labelTime(c)
		if !ok {
			var err error
			if t, err = d.firstFetch(ctx, c); err != nil {
				return err
			}
		}
		at[c] = t
	}
	slices.SortStableFunc(d.crawls, func(a, b string) int {
		if c := at[a].Compare(at[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return nil
}

// firstFetch returns the earliest fetch time of a crawl's captures, the
// zero time when none has one.
func (d *Dataset) firstFetch(ctx context.Context, crawl string) (time.Time, error) {
	var mu sync.Mutex
	var first time.Time
	err := d.Scan(ctx, Spec{Table: "captures", Crawl: crawl, Columns: []string{"fetch_time"}}, func(_ int, rec arrow.Record) error {
		col, ok := rec.Column(0).(*array.Timestamp)
		if !ok {
			return fmt.Errorf("captures.fetch_time of crawl %s is %s, not a timestamp", crawl, rec.Column(0).DataType())
		}
		unit := col.DataType().(*arrow.TimestampType).Unit
		for i := range col.Len() {
			if col.IsNull(i) {
				continue
			}
			t := col.Value(i).ToTime(unit)
			mu.Lock()
			if first.IsZero() || t.Before(first) {
				first = t
			}
			mu.Unlock()
		}
		return nil
	})
	return first, err
}

// selectCrawls keeps the crawls labelled, in the dataset's order.
func (d *Dataset) SelectCrawls(labels []string) error {
	for _, l := range labels {
		if !slices.Contains(d.crawls, l) {
			return fmt.Errorf("%w: no crawl %q in the dataset (it has %s)", ErrBadOption, l, strings.Join(d.crawls, ", "))
		}
	}
	d.crawls = slices.DeleteFunc(d.crawls, func(c string) bool { return !slices.Contains(labels, c) })
	return nil
}
