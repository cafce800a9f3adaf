package analyze

import "errors"

// ErrBadFormat means a format name other than html, md and json.
var ErrBadFormat = errors.New("analyze: unknown format")
