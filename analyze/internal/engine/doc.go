// Package engine runs the crawl report's sections over one crawl of a
// dataset: it splits the captures into host batches, makes the passes
// over the tables that index and mark them (the deciding capture of each
// host, redirects followed, the diagnostic codes of each capture), and
// feeds each section's accumulators, one per worker, what it Needs: a
// table of the dataset or a pseudo-table of what the passes found
// (marks, deciding and effective captures, chosen hosts, the rows of a
// table per host). Once a section's needs are fed, the workers'
// accumulators are merged and the section's Finish gets the result.
//
// A Section here is what the engine runs of a section: its Needs, New and
// Finish. Package sections holds the crawl report's sections and turns
// each into one; to add a kind of need, add a Table and feed it in the
// passes (feeds.go).
//
// # Memory and speed
//
// Tables are read in record batches (16,384 rows; 64 for bodies), with the
// row groups of each file shared out among the workers (a published
// partition has one or two large files per table), so memory does not grow
// with the rows of diagnostics, rules or agents. What the report keeps of each capture is bounded by host batches:
// the captures of a crawl partition are split by a 64-bit hash of
// url_host_name into P batches processed one after the other. P is
// ceil(captures / [DefaultBatchCaptures]) from the row counts in the
// captures files' footers, so that a batch holds at most about 1,048,576
// captures; or as few as fit the memory given with analyze.WithMemory (what
// robocensus report does, with its soft memory limit); or what
// analyze.WithHostBatches sets. The figures are the same for any
// P (the tests compare the JSON of 1, 3 and 7 batches, and more on a dataset
// made for it):
//
//   - Per-host choices are made within a batch, which holds every capture
//     of its hosts: the deciding capture, usable hosts, the verdicts of
//     the agents table, what hosts say of AI crawlers. A host whose
//     effective capture is of another batch's host is counted in that
//     batch: each batch reads the hosts table (two columns) and weighs
//     each of its captures by the hosts it decides for.
//   - Counts add up over the batches. The first batch also counts, over
//     every row, what needs no capture state (outcomes and statuses,
//     sizes, user agents named, diagnostic rows and typos, rules); the
//     later batches read only the columns that index and mark captures.
//   - The worst hosts are ranked in one list as the hosts of each batch
//     are fed.
//   - The shared bodies are chosen once the last batch's marks are fed,
//     when the hosts of every body are counted: those served by as many
//     hosts as the last listed can be. Their hosts are fed again ("chosen
//     hosts"), with their digests and names, and the bodies ranked as
//     they come: the last batch's in its hosts pass, the other batches' by
//     indexing them again (their captures only).
//
// A batch keeps 48 bytes per capture and 5.3 to 10.7 bytes of index (an
// open-addressing table of capture indices by ID hash), and, while its
// captures are read, 32 bytes and a map entry per host (about 62 bytes
// per host with the entry): some 120 bytes per capture at most, about
// 125 MB for a full batch whose captures are each their own host; 53 to 59
// bytes per capture from the end of its captures pass to the end of its
// passes.
//
// Figures keyed by something other than the host keep state per distinct
// key for the whole crawl, whatever P:
//
//   - sizes: a count per distinct real size (payload_length_real) of the
//     read captures, 20 to 40 bytes each (at most one per byte count up
//     to the stored-bytes cap, and one per larger file, which are few), in
//     each worker, until the first batch's captures pass ends;
//   - user agents named: a count per distinct lower-cased value, its bytes
//     and some 40 to 60 more, in each worker, until the first batch's
//     captures pass ends;
//   - typos: a count per distinct misspelled key and code;
//   - shared bodies: a count of hosts per distinct payload digest hash of
//     the hosts' usable, non-empty deciding captures, 20 to 40 bytes each,
//     until the last batch's marks are fed; then only the bodies that may
//     be listed (as many as listed, and those tied with the last).
//     A crawl where most hosts serve a body of their own has about one
//     entry per host: 1.2 to 2.4 GB for 60 million hosts, the largest
//     state of a Common Crawl partition;
//   - agents not tracked: verdict counts per distinct agents.agent value.
//
// A section that needs a "host T" table (crawlers, usage preferences)
// keeps a tally of 8 bytes per capture of the batch (a word; "who wrote
// these files" keeps two, a bit per entry of the template catalogue,
// Section.TallyWords), made after the batch's hosts are let go, so under
// the captures pass's peak. Usage
// preferences reads the directives and preferences tables once per
// batch for the rows of the usable hosts' effective captures, and takes
// GPTBot's verdict from the agents pass the crawlers section makes
// anyway; classic mistakes reads four more columns of captures in the
// pass that feeds the hosts ("marked captures"). No set of capture IDs or
// hosts lives beyond a batch. What the two sections cost: see README,
// Performance.
//
// The per-host figures follow redirects (effective.go): each batch reads
// two columns of the hosts table once and keeps a 4-byte weight per
// capture (in the 48 bytes). The changes section needs the names of the
// hosts each capture decides for ("effective hosts"): 12 bytes and the
// name's bytes per host of the batch, kept while its passes run (its
// measured cost: see README, Performance).
//
// The changes section keeps no per-host state in memory beyond a
// buffer of 16 MiB (changesRunBytes, 24 bytes and the name per host):
// each host's name and 12 bytes go to runs sorted by name in a temporary
// folder (twice per host: its row of the hosts table and its effective
// capture), merged at the end of the crawl, joined with the previous
// crawl's merged file and written as this crawl's (hoststate.go): some
// 28-38 bytes of disk per host and file, 1.5-2 GB for 50 million hosts,
// about four times that at the end of a crawl (runs, previous file, new
// file). Its measured cost in CPU and memory: see README, Performance.
//
// The price of batches is time: every batch reads the captures,
// diagnostics, rules and agents tables again (the columns it needs), so a
// report takes about P times the work of one pass over the crawl, which
// grows as the square of the crawl's size once it needs more than one
// batch.
//
// The repetitive string columns (capture_id, agent and verdict of the
// agents table, one row per capture and tracked crawler, some 180 per
// capture; capture_id, code, severity and directive of diagnostics and
// rules; outcome) are read as Arrow dictionaries (schema.WithDictionary):
// each distinct value of a record is looked at once and each row is an
// index. Reading the agents table is still half the time, most of it in
// Arrow decoding the indices of every row.
//
// 64-bit hashes stand for capture IDs, host names and digests: a collision
// (about 1 in 3·10⁷ for a million identifiers) would merge two. Crawls are
// reported one after the other, so the largest partition sets the peak.
// The Go heap may grow to twice what is live: robocensus report sets a
// soft memory limit (three quarters of the memory available, or --memory)
// unless GOMEMLIMIT or --host-batches is set, and chooses the batches to
// fit the limit (analyze.WithMemory).
//
// The measured times and peaks of the crawl and site reports (1 and 4.5
// million captures, each number of batches), and what a full Common Crawl
// partition would take: see README, Performance; scripts/bench-report.sh
// measures them again.
package engine
