package remote

import (
	"errors"
	"fmt"
	"strings"
)

// prefix starts the text of every error this package makes.
const prefix = "remote: "

// Errors of remote inputs. A transfer that fails ends with an error wrapping
// one of these (in an [*InputError]); the transient ones (5xx, 429 and 408
// statuses, time-outs, connection resets and other network errors) are
// retried first, the others end the transfer at once.
var (
	// ErrHTTPStatus is wrapped by an [*HTTPStatusError]: the server answered
	// with a status that gives no body to read (404, 403, 503, ...).
	ErrHTTPStatus = errors.New("remote: HTTP error status")

	// ErrRetriesExhausted means a transfer failed more times in a row than
	// the retries allow ([WithRetries]); it wraps the last failure.
	ErrRetriesExhausted = errors.New("remote: retries exhausted")

	// ErrRangeIgnored means an interrupted transfer cannot be resumed: the
	// server answered a Range request from byte N with a 206 whose
	// Content-Range does not start at N. Bytes are never spliced on a
	// guess. (A 200 with the whole, unchanged resource is read again from
	// its start, its first N bytes dropped.)
	ErrRangeIgnored = errors.New("remote: Range request not honoured; transfer cannot resume")

	// ErrRemoteChanged means the resource changed while it was being read:
	// its ETag, Last-Modified or total length differ from those of the
	// first response, or the remaining range no longer exists (416).
	ErrRemoteChanged = errors.New("remote: remote input changed during the transfer")

	// ErrHeaderTimeout means no response header arrived within the header
	// timeout ([WithHeaderTimeout]).
	ErrHeaderTimeout = errors.New("remote: no response header within the timeout")

	// ErrIdleTimeout means a body read received nothing within the idle
	// timeout ([WithIdleTimeout]).
	ErrIdleTimeout = errors.New("remote: no data within the idle timeout")

	// ErrRedirect means a redirect was not followed: a loop (a URL
	// already visited), more than [MaxRedirects] redirects, a Location
	// that is not a URL (one without a scheme, say "host:8080/x"), or a
	// scheme other than http and https. It is permanent: not retried.
	ErrRedirect = errors.New("remote: redirect not followed")
)

// ErrManifest means a manifest cannot be used: a line that is neither a
// clean relative path nor an http(s) URL, too many or too long lines, or
// corrupt gzip data.
var ErrManifest = errors.New("remote: invalid manifest")

// An HTTPStatusError is a response status that gives no body to read. It
// wraps [ErrHTTPStatus].
type HTTPStatusError struct {
	StatusCode int
	Status     string // as the server sent it, e.g. "404 Not Found"
	// Code and Message are those of an S3 store's error answer
	// ("NoSuchKey", "The specified key does not exist."); "" otherwise.
	Code, Message string
}

// Error implements error: "remote: HTTP status 404 Not Found", followed
// for an S3 answer by its code and message.
func (e *HTTPStatusError) Error() string {
	text := prefix + "HTTP status " + e.Status
	if e.Code != "" {
		text += ": S3 " + e.Code
		if e.Message != "" {
			text += ": " + e.Message
		}
	}
	return text
}

// Unwrap returns ErrHTTPStatus.
func (e *HTTPStatusError) Unwrap() error { return ErrHTTPStatus }

// badURLError marks the error of a name that is not an http(s) URL to
// request (see Permanent); its text is that of the error it wraps.
type badURLError struct{ err error }

func (e *badURLError) Error() string { return e.err.Error() }
func (e *badURLError) Unwrap() error { return e.err }

// errorf is [fmt.Errorf] for the errors this package makes: the text
// starts with prefix once. An error it formats whose text starts with
// prefix or with archive's "archive: " (a sentinel wrapped here, or an
// error made by errorf before) is shown without that prefix, so that a
// chain reads "remote: read error: retries exhausted after 4 attempts:
// HTTP status 503 Service Unavailable". errors.Is and errors.As see every
// error that format wraps with %w.
func errorf(format string, args ...any) error {
	shown := make([]any, len(args))
	for i, a := range args {
		if err, ok := a.(error); ok {
			a = unprefixed(err)
		}
		shown[i] = a
	}
	text := prefix + fmt.Sprintf(strings.ReplaceAll(format, "%w", "%v"), shown...)
	return &remoteError{text: text, err: fmt.Errorf(format, args...)}
}

// unprefixed returns the text of err without a leading package prefix.
func unprefixed(err error) string {
	text := err.Error()
	for _, p := range []string{prefix, "archive: "} {
		if rest, ok := strings.CutPrefix(text, p); ok {
			return rest
		}
	}
	return text
}

// remoteError is an error made by errorf: its text, and the error of
// fmt.Errorf (with the prefixes of the errors it wraps) that Unwrap
// returns, so that errors.Is and errors.As walk on through it.
type remoteError struct {
	text string
	err  error
}

func (e *remoteError) Error() string { return e.text }
func (e *remoteError) Unwrap() error { return e.err }
