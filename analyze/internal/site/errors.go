package site

import "errors"

// ErrNoSite means the dataset holds no capture of the host asked for.
var ErrNoSite = errors.New("analyze: no capture of this host")
