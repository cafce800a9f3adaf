// Package remote fetches inputs over HTTP: it reads an http or https URL
// as package archive reads a local file, and expands Common Crawl
// manifests and lists of inputs. It owns the transfer (requests, retries,
// time-outs, Range resumption) and nothing after it: the bytes go to an
// archive reader, the captures to the caller. It imports only package
// archive of this repository.
//
// # Remote inputs
//
// [Open] finds the format from the first bytes (and the URL's path), and
// the archive readers get the response body as a stream, never saved to
// disk nor held whole in memory, so that Counts.Bytes and every
// archive.Provenance offset are those of the remote file
// (Provenance.File is the URL). Open's context's cancellation ends the
// transfer and its waits. A transfer survives what goes wrong on the way:
//
//   - Each response header must arrive within the header timeout
//     ([WithHeaderTimeout], default 60 s, connecting included), and each
//     body read must receive a byte within the idle timeout
//     ([WithIdleTimeout], 60 s; time the caller spends between reads does
//     not count): a stalled server fails rather than hangs.
//   - Transient failures are retried: 5xx, 429 and 408 answers, time-outs,
//     connection resets, bodies cut short, HTTP/2 stream errors and other
//     network errors. Permanent failures are not, and fail at once: other
//     4xx answers (404, 403, ...), a redirect loop, more than
//     [MaxRedirects] redirects, a Location that is not a URL or is not
//     http(s) ([ErrRedirect]), a malformed URL, an unknown host and a
//     certificate that does not verify. Before the k-th retry
//     in a row the wait is random between d/2 and d, d = base*2^(k-1)
//     capped at max ([WithBackoff], 1 s and 1 min), or the Retry-After the
//     server asked for when longer, up to max. More than [WithRetries] (8)
//     failures in a row end the transfer with [ErrRetriesExhausted]; bytes
//     received reset the count.
//   - An interrupted body is resumed with "Range: bytes=N-", N being the
//     bytes already delivered, and If-Range (the strong ETag, else
//     Last-Modified). A 206 whose Content-Range starts at N, with the
//     total length, ETag and Last-Modified of the first answer, continues
//     the stream. A server that ignores the range and answers 200 with the
//     whole file is read from the start again, as wget and curl do: its
//     first N bytes are read and dropped (they must all arrive), and the
//     stream goes on after them, so each capture is read once. A 200 or
//     206 whose length, ETag or Last-Modified differ from those of the
//     first answer, or a 200 shorter than N, is another version of the
//     file ([ErrRemoteChanged]); a 206 from another offset cannot be used
//     ([ErrRangeIgnored]). Both end the transfer, recorded as the input's
//     error: bytes of two versions are never spliced, and restarting the
//     input from its start is not possible once its captures went on.
//
// A failure before the first byte makes Open fail: an
// [*archive.InputError] wrapping [archive.ErrRead] and the cause (an [*HTTPStatusError] for a 404). A
// transfer that ends early after that reads as the end of the input at the
// byte where it stopped: the readers record the cut record as damage, as
// for a truncated file, every capture before it is returned, and Next then
// returns an *archive.InputError wrapping [archive.ErrTruncated] and the
// cause. A file whose server announces more bytes than it can send thus
// ends with its damage and its error, and the pipeline (ingest.Run)
// records both in the input's row and goes on with the other inputs.
//
// Requests ask for "Accept-Encoding: identity" (offsets are those of the
// file as stored) and send [DefaultUserAgent] ([WithUserAgent]). They go
// through a client shared by all readers ([WithHTTPClient] replaces it)
// with keep-alive and HTTP/2 and no proxy: like every option here, nothing
// is read from the environment.
//
// # Manifests
//
// A Common Crawl manifest, "crawl-data/CC-MAIN-YYYY-WW/robotstxt.paths.gz"
// ([IsManifest]: a path or URL ending in ".paths.gz"), lists a crawl's
// files, one path per line relative to the root of Common Crawl's bucket.
// [ExpandInputs] replaces a manifest, local or remote (read with the same
// retries), by the inputs it lists, resolved against the base of
// [WithBaseURL] by the rule of [ReadManifest]: with a URL base (default
// [DefaultBaseURL], https://data.commoncrawl.org/) a line becomes
// BASE/PATH; with a local folder, the file PATH under it, for a mirror of
// the bucket. Lines must be clean relative paths (or http(s) URLs), so a
// manifest cannot name files outside its base. [CrawlLabel] finds the
// crawl in the paths listed.
//
// # Adding to it
//
// In the data flow it comes first: ingest.Run hands it the input names,
// and it hands ingest archive readers. A setting of a transfer is an
// [Option] (With..., documented with its default) and never read from the
// environment. A failure is either transient (transient, in transfer.go:
// retried with backoff and resumed) or permanent (fails at once): a new
// kind of failure goes to one side, with a test against a real HTTP server
// on loopback that makes it happen. A new way to list inputs goes to
// [ExpandInputs].
package remote
