// Package objstore keeps a robocensus dataset in S3-compatible object
// storage: a [Store] is a bucket prefix, s3://BUCKET/PREFIX, reached with
// aws-sdk-go-v2's S3 client (path-style with an endpoint, SigV4, checksums
// only where an operation requires them, as most S3-compatible stores
// want). It puts (a large file with a multipart upload, [Config.PieceSize]),
// gets, lists and deletes objects under the prefix, puts
// an object only if none exists ([Store.PutIfAbsent], If-None-Match: *),
// deletes one only if it is the version read ([Store.DeleteIfMatch],
// If-Match), and gives a set of objects as an [io/fs.FS] whose files read
// at an offset with ranged GETs through a small cache ([Store.FS]).
//
// What the objects mean (parts, segments, locks, the listings of the
// published partitions) is package dataset's. This package imports nothing
// of this repository.
//
// A store that ignores If-None-Match would let two runs take one lock:
// [Store.CheckConditionalWrites] finds out, by putting one probe object
// twice, and its error ([ErrNoConditionalWrites]) says that the store
// cannot keep a dataset safely, rather than risk it.
package objstore
