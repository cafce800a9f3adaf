package remote

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"time"
)

// ExpandInputs turns command-line inputs into the list Run reads:
//   - "@FILE" stands for the inputs listed in FILE, one per line (blank
//     lines and lines starting with '#' ignored);
//   - a Common Crawl manifest ([IsManifest]: a local path or an http(s) URL
//     whose path ends in ".paths.gz") stands for the inputs it lists,
//     resolved against the base URL set with [WithBaseURL] (default
//     DefaultBaseURL) by the rule of [ReadManifest]; a manifest named in an
//     @FILE list is expanded too;
//   - any other argument is an input.
//
// opts are WithBaseURL, and for a manifest read over HTTP the client,
// timeouts and retries of remote inputs. [CrawlLabel] of the result finds the crawl
// of a Common Crawl manifest in the paths it lists.
func ExpandInputs(args []string, opts ...Option) ([]string, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range args {
		items := []string{a}
		if list, ok := strings.CutPrefix(a, "@"); ok {
			if items, err = readList(list); err != nil {
				return nil, err
			}
		}
		for _, in := range items {
			if !IsManifest(in) {
				out = append(out, in)
				continue
			}
			names, err := readManifest(in, cfg)
			if err != nil {
				return nil, err
			}
			out = append(out, names...)
		}
	}
	return out, nil
}

func readList(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("reading input list: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errorf("reading input list %s: %w", path, err)
	}
	return out, nil
}

var crawlPattern = regexp.MustCompile(`CC-MAIN-\d{4}-\d{2}`)

// CrawlLabel returns the default partition label of a run: the Common Crawl
// crawl the inputs name ("CC-MAIN-2025-05") when they all name the same one,
// otherwise the date of now in UTC ("2026-11-22").
func CrawlLabel(inputs []string, now time.Time) string {
	label := ""
	for _, in := range inputs {
		m := crawlPattern.FindString(in)
		if m == "" || label != "" && m != label {
			return now.UTC().Format(time.DateOnly)
		}
		label = m
	}
	if label == "" {
		return now.UTC().Format(time.DateOnly)
	}
	return label
}
