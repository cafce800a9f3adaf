// Command gencrawlers writes robots/crawlers.go, the list of crawlers the
// dataset tracks: the AI crawlers of the ai.robots.txt project (MIT
// licensed; its notice is copied into the output) and the major search
// engine crawlers.
//
//	go run ./scripts/gencrawlers ../shared/corpus/robots/ai-robots-txt/robots.json > robots/crawlers.go
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"sort"
	"strings"
)

// searchCrawlers are the product tokens of the major search engines' web
// crawlers, with their operators.
var searchCrawlers = [][2]string{
	{"Googlebot", "Google"},
	{"Googlebot-Image", "Google"},
	{"Googlebot-News", "Google"},
	{"Bingbot", "Microsoft"},
	{"Slurp", "Yahoo"},
	{"DuckDuckBot", "DuckDuckGo"},
	{"Baiduspider", "Baidu"},
	{"YandexBot", "Yandex"},
	{"Applebot", "Apple"},
	{"SeznamBot", "Seznam"},
	{"Yeti", "Naver"},
	{"PetalBot", "Huawei"},
	{"Sogou", "Sogou"},
	{"Qwantbot", "Qwant"},
}

// fallback is what an operator documents about a crawler that obeys another
// token's group when no group names it: the tokens, in order, and where the
// operator says so (written as a comment above the crawler's entry).
type fallback struct {
	tokens []string
	source string
}

// Google's robots.txt specification, "Order of precedence for user
// agents", is the rule behind Google's fallbacks: a crawler follows only
// the most specific group that matches it, and a more generic one when no
// specific group exists.
const googleSpec = "Google's robots.txt specification (developers.google.com/crawling/docs/robots-txt/robots-txt-spec), " +
	"\"Order of precedence for user agents\": a Google crawler follows the most specific group that matches it and " +
	"ignores the others; when no group names its own token, the more generic group is followed."

// fallbacks are the crawlers that obey another token's group when no group
// names them, by token, as their operators document. Only what an operator
// documents is here: Google-Extended and Applebot-Extended are control
// tokens with no documented fallback, and Bing documents none for bingbot.
var fallbacks = map[string]fallback{
	"Googlebot-Image": {[]string{"Googlebot"}, googleSpec + " Its example: Googlebot Images follows the googlebot group, " +
		"\"there's no specific googlebot-images group, so the more generic group is followed\"."},
	"Googlebot-News": {[]string{"Googlebot"}, googleSpec + " Google's list of its crawlers (\"Appendix: Google's website " +
		"crawlers\", developers.google.com/webmasters/control-crawl-index/docs/crawlers) names Googlebot as the " +
		"less-specific alternative of Googlebot-News, in its column \"User-agents (+ less-specific alternatives) " +
		"followed in robots.txt\"."},
	"Applebot": {[]string{"Googlebot"}, "Apple, \"About Applebot\" (support.apple.com/en-us/119829, formerly " +
		"HT204683): \"If robots instructions don't mention Applebot but do mention Googlebot, the Apple robot will " +
		"follow Googlebot instructions.\""},
	"YandexBot": {[]string{"Yandex"}, "Yandex Webmaster help, \"The User-agent directive\" " +
		"(yandex.com/support/webmaster/en/robot-workings/user-agent): a \"User-agent: Yandex\" group is used by all " +
		"Yandex robots and makes them ignore '*'; a YandexBot group is used by the main indexing robot alone, which " +
		"then ignores the Yandex group."},
	"GoogleOther-Image": {[]string{"GoogleOther"}, "Google's list of common crawlers " +
		"(developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers) gives GoogleOther-Image the " +
		"user agent tokens GoogleOther-Image and GoogleOther. " + googleSpec},
	"GoogleOther-Video": {[]string{"GoogleOther"}, "Google's list of common crawlers " +
		"(developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers) gives GoogleOther-Video the " +
		"user agent tokens GoogleOther-Video and GoogleOther. " + googleSpec},
}

type aiAgent struct {
	Operator string `json:"operator"`
	Function string `json:"function"`
	Respect  string `json:"respect"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gencrawlers robots.json > robots/crawlers.go")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	var ai map[string]aiAgent
	if err := json.Unmarshal(data, &ai); err != nil {
		fail(err)
	}
	var names []string
	for n := range ai {
		names = append(names, n)
	}
	sort.Strings(names)
	// Tokens match ignoring case: keep one of "Meta-ExternalAgent" and
	// "meta-externalagent" (the first in sort order, capitals first), and
	// list Applebot and PetalBot once, as search crawlers.
	seen := map[string]bool{}
	for _, s := range searchCrawlers {
		seen[strings.ToLower(s[0])] = true
	}
	kept := names[:0]
	for _, n := range names {
		if !seen[strings.ToLower(n)] {
			seen[strings.ToLower(n)] = true
			kept = append(kept, n)
		}
	}
	names = kept
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("var trackedCrawlers = []Crawler{\n")
	used := 0
	entry := func(token, fields string) {
		fb, ok := fallbacks[token]
		if !ok {
			fmt.Fprintf(&b, "\t{Token: %q, %s},\n", token, fields)
			return
		}
		used++
		for _, line := range wrap(fb.source, 76) {
			fmt.Fprintf(&b, "\t// %s\n", line)
		}
		fmt.Fprintf(&b, "\t{Token: %q, %s, Fallbacks: %#v},\n", token, fields, fb.tokens)
	}
	for _, s := range searchCrawlers {
		entry(s[0], fmt.Sprintf("Kind: CrawlerSearch, Operator: %q", s[1]))
	}
	for _, n := range names {
		a := ai[n]
		entry(n, fmt.Sprintf("Kind: CrawlerAI, Operator: %q, Function: %q", clean(a.Operator), clean(a.Function)))
	}
	if used != len(fallbacks) {
		fail(fmt.Errorf("%d of the %d crawlers with fallbacks are not tracked", len(fallbacks)-used, len(fallbacks)))
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(out)
}

// clean keeps the first line of a field and drops markdown links and
// "Unclear" placeholders.
func clean(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if strings.HasPrefix(s, "Unclear") {
		return ""
	}
	if i := strings.Index(s, "]("); i > 0 && strings.HasPrefix(s, "[") {
		s = s[1:i]
	}
	if len(s) > 120 {
		s = s[:strings.LastIndex(s[:120], " ")] + "..."
	}
	return s
}

// wrap splits s into lines of at most width bytes, between words.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gencrawlers:", err)
	os.Exit(1)
}

const header = `// Code generated by scripts/gencrawlers; DO NOT EDIT.

// The AI crawlers below come from the ai.robots.txt project
// (github.com/ai-robots-txt/ai.robots.txt, robots.json at commit
// 738c80df2169027ce0e07c9976fd3f2f57dd8f7b), under this license:
//
// MIT License
//
// Copyright (c) 2024 ai.robots.txt
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

package robots

// trackedCrawlers are the crawlers the dataset tracks by default (the
// agents table; see [TrackedCrawlers]): the major search engines'
// crawlers, then the AI crawlers of the ai.robots.txt list, by token. A
// crawler that obeys another token's group when no group names it has
// Fallbacks, with its operator's documentation cited above it. Never
// modified: callers get copies.
`
