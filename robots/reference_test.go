package robots

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// refAllowed is the slow, obviously-correct reference matcher the fuzz
// targets compare [File.Allowed] with. It follows the documented behaviour
// of Google's parser step by step, line by line, as a state machine over the
// raw text, reparsing for every URL, and matches patterns with regular
// expressions. It shares no code with the package.
func refAllowed(body string, agents []string, url string) bool {
	if len(body) > MaxBytes {
		body = body[:MaxBytes]
	}
	for _, b := range []byte{0xEF, 0xBB, 0xBF} { // any prefix of the UTF-8 BOM
		if len(body) > 0 && body[0] == b {
			body = body[1:]
		} else {
			break
		}
	}
	path := refPath(url)
	var (
		global, specific, everSpecific, separator bool
		allowSpec, disSpec, allowGlob, disGlob    = -1, -1, -1, -1
	)
	record := func(prio int, allow bool) {
		if prio < 0 {
			return
		}
		switch {
		case specific && allow:
			allowSpec = max(allowSpec, prio)
		case specific:
			disSpec = max(disSpec, prio)
		case allow:
			allowGlob = max(allowGlob, prio)
		default:
			disGlob = max(disGlob, prio)
		}
	}
	for _, line := range refLineEnd.Split(body, -1) {
		key, value, ok := refKeyValue(line)
		if !ok {
			continue
		}
		switch refKind(key) {
		case "user-agent":
			if separator {
				global, specific, separator = false, false, false
			}
			if value == "*" || strings.HasPrefix(value, "*") && len(value) > 1 && strings.ContainsRune(" \t\n\v\f\r", rune(value[1])) {
				global = true
				continue
			}
			name := refAgentToken.FindString(value)
			for _, a := range agents {
				if len(name) == len(a) && strings.EqualFold(name, a) && isASCII(a) {
					specific, everSpecific = true, true
				}
			}
		case "allow", "disallow":
			if !global && !specific {
				continue
			}
			separator = true
			pattern := refEscape(value)
			allow := refKind(key) == "allow"
			prio := refMatch(pattern, path)
			if prio < 0 && allow {
				// Google-specific: ".../index.htm*" also allows ".../".
				if i := strings.LastIndex(pattern, "/"); i >= 0 && strings.HasPrefix(pattern[i:], "/index.htm") {
					prio = refMatch(pattern[:i+1]+"$", path)
				}
			}
			record(prio, allow)
		}
	}
	if allowSpec > 0 || disSpec > 0 {
		return disSpec <= allowSpec
	}
	if everSpecific {
		return true
	}
	if allowGlob > 0 || disGlob > 0 {
		return disGlob <= allowGlob
	}
	return true
}

var (
	refCache      sync.Map // expression -> *regexp.Regexp
	refLineEnd    = regexp.MustCompile("\r\n|\r|\n")
	refAgentToken = regexp.MustCompile(`^[A-Za-z_-]*`)
	refBlanks     = regexp.MustCompile(`[ \t]+`)
)

// refKeyValue splits a line into key and value as Google's parser does, or
// reports that the line holds no directive.
func refKeyValue(line string) (key, value string, ok bool) {
	if len(line) > MaxLineBytes {
		line = line[:MaxLineBytes]
	}
	line, _, _ = strings.Cut(line, "\x00")
	line, _, _ = strings.Cut(line, "#")
	const space = " \t\n\v\f\r"
	line = strings.Trim(line, space)
	if k, v, found := strings.Cut(line, ":"); found {
		key, value = k, v
	} else {
		words := refBlanks.Split(line, -1)
		if len(words) != 2 {
			return "", "", false
		}
		i := strings.IndexAny(line, " \t")
		key, value = line[:i], line[i+1:]
	}
	key, value = strings.Trim(key, space), strings.Trim(value, space)
	return key, value, key != ""
}

// refKind names the directive a key stands for, by the prefixes Google's
// parser accepts, in the order it tries them.
func refKind(key string) string {
	k := strings.ToLower(key)
	for _, p := range []struct{ prefix, kind string }{
		{"user-agent", "user-agent"}, {"useragent", "user-agent"}, {"user agent", "user-agent"},
		{"allow", "allow"},
		{"disallow", "disallow"}, {"dissallow", "disallow"}, {"dissalow", "disallow"},
		{"disalow", "disallow"}, {"diasllow", "disallow"}, {"disallaw", "disallow"},
		{"sitemap", "sitemap"}, {"site-map", "sitemap"},
	} {
		if strings.HasPrefix(k, p.prefix) {
			return p.kind
		}
	}
	return ""
}

// refEscape percent-encodes non-ASCII bytes and upper-cases escapes.
func refEscape(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) && isHexRef(p[i+1]) && isHexRef(p[i+2]) {
			b.WriteString(strings.ToUpper(p[i : i+3]))
			i += 2
		} else if p[i] >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", p[i])
		} else {
			b.WriteByte(p[i])
		}
	}
	return b.String()
}

func isHexRef(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }

// refMatch returns the pattern's length if it matches path, else -1, by
// translating the pattern to a regular expression.
func refMatch(pattern, path string) int {
	expr := "(?s)^"
	body := pattern
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		body = pattern[:len(pattern)-1]
	}
	for _, part := range strings.Split(body, "*") {
		expr += regexp.QuoteMeta(part) + ".*"
	}
	expr = strings.TrimSuffix(expr, ".*")
	if anchored {
		expr += "$"
	}
	re, ok := refCache.Load(expr)
	if !ok {
		re, _ = refCache.LoadOrStore(expr, regexp.MustCompile(expr))
	}
	if re.(*regexp.Regexp).MatchString(bytesAsLatin1(path)) {
		return len(pattern)
	}
	return -1
}

// bytesAsLatin1 maps each byte to one rune so that the regexp engine sees
// exactly one character per byte, valid UTF-8 or not. Patterns are ASCII
// after escaping, so ASCII bytes compare as before.
func bytesAsLatin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
		if s[i] >= 0x80 {
			r[i] = 0x100 + rune(s[i]) // never equal to an ASCII pattern byte
		}
	}
	return string(r)
}

// refPath extracts path, parameters and query from a URL the way Google's
// parser documents it: skip a leading "//"; a "://" before any '/', '?'
// or ';' ends the scheme; the path starts at the next '/', '?' or ';'; a
// '#' ends it (a '#' before the path leaves "/"); a '/' is prepended when
// the result would start with '?' or ';'.
func refPath(url string) string {
	rest := strings.TrimPrefix(url, "//")
	hash := strings.Index(rest, "#")
	from := 0
	if i := strings.Index(rest, "://"); i >= 0 && !strings.ContainsAny(rest[:i], "/?;") {
		from = i + 3
	}
	start := strings.IndexAny(rest[from:], "/?;")
	if start < 0 {
		return "/"
	}
	start += from
	end := len(rest)
	if hash >= 0 {
		if hash < start {
			return "/"
		}
		end = hash
	}
	if p := rest[start:end]; p[0] == '/' {
		return p
	} else {
		return "/" + p
	}
}

func isASCII(s string) bool {
	for _, r := range s {
		if r >= 0x80 {
			return false
		}
	}
	return true
}
