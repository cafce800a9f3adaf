// Package remote fetches inputs over the network: it reads an http or
// https URL, or an s3:// object, as package archive reads a local file,
// and expands Common Crawl manifests and lists of inputs. It owns the
// transfer (requests, retries, time-outs, Range resumption, the cap on
// requests to one host) and nothing after it: the bytes go to an archive
// reader, the captures to the caller. It imports only packages archive
// and objstore (the rule for bucket names) of this repository, and, for
// S3, the AWS SDK's signer and settings.
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
// is read from the environment. No more than [DefaultHostRequests] (16)
// requests are in flight to one host at once ([WithHostRequests]): a
// transfer holds a slot of its host from its request to the end of its
// body, so that many readers stay polite to one server (Common Crawl's
// gives a few thousand requests a second to everyone together).
//
// # S3 inputs
//
// "s3://BUCKET/KEY" names an object of an S3 bucket or of an
// S3-compatible store ([IsS3]; the key is taken as written, not
// percent-decoded). It is read by the transfer above, with all its
// retries, resumption and time-outs: one GET of the object, resumed with
// Range where it stopped, never a request per record. [WithS3] says where
// the requests go and how they are signed ([S3Config]): the Endpoint of
// an S3-compatible store, addressed path-style (ENDPOINT/BUCKET/KEY),
// else AWS's, https://BUCKET.s3.REGION.amazonaws.com/KEY; requests are
// signed with AWS Signature Version 4 (the key encoded as S3 signs it,
// so "=" of a Hive partition is %3D), or sent unsigned (anonymous, which a
// public bucket allows) when there are no credentials. An S3 store's error
// answer is read: its code and message ("NoSuchKey", "SlowDown", ...) are
// in the [*HTTPStatusError], and a refused anonymous request says that no
// credentials were found. 503 SlowDown, like any 5xx, 429 and the
// RequestTimeout code, is retried after the backoff, or the Retry-After
// asked for. [S3ConfigFromEnvironment], the one function here that reads
// the environment, makes the S3Config of the standard AWS settings
// (environment, shared config and credentials files, web identity,
// container and instance roles, AWS_ENDPOINT_URL_S3 and the profile's
// services section).
//
// # Manifests
//
// A Common Crawl manifest, "crawl-data/CC-MAIN-YYYY-WW/robotstxt.paths.gz"
// ([IsManifest]: a path or URL ending in ".paths.gz"), lists a crawl's
// files, one path per line relative to the root of Common Crawl's bucket.
// [ExpandInputs] replaces a manifest, local or remote (read with the same
// retries), by the inputs it lists, resolved against the base of
// [WithBaseURL] by the rule of [ReadManifest]: with a URL base (default
// [DefaultBaseURL], https://data.commoncrawl.org/, or an s3:// URL) a
// line becomes BASE/PATH; with a local folder, the file PATH under it, for
// a mirror of the bucket. The paths of an s3:// manifest are keys of its
// own bucket, as those of Common Crawl's are of s3://commoncrawl/. Lines must be clean relative paths (or http(s) URLs), so a
// manifest cannot name files outside its base. [CrawlLabel] finds the
// crawl in the paths listed.
//
// # Adding to it
//
// In the data flow it comes first: ingest.Run hands it the input names,
// and it hands ingest archive readers. A setting of a transfer is an
// [Option] (With..., documented with its default) and never read from the
// environment (but for S3ConfigFromEnvironment, which the caller calls).
// A failure is either transient (transient, in transfer.go:
// retried with backoff and resumed) or permanent (fails at once): a new
// kind of failure goes to one side, with a test against a real HTTP server
// on loopback that makes it happen. A new way to list inputs goes to
// [ExpandInputs].
package remote
