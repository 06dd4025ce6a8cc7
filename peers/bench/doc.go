// Package bench is pqgen's end-to-end benchmark suite against parquet-go
// (GenericWriter[T]/GenericReader[T]) and arrow-go (pqarrow from record
// builders, and back into structs), on three row types: Flat (six scalar
// columns), Contact (an optional struct, a list of strings, a list of
// structs and a map) and Wide (200 mixed columns). Each type runs twice:
// with regular data (flat, nested, wide: ids that count up, few distinct
// strings, regular times) and with high-entropy data (flat-he, nested-he,
// wide-he: random int64 ids, strings drawn from a Zipf distribution over
// 50,000 keys or random, normally distributed floats, a third of the
// optional ints null, jittered times, random list lengths), both from
// fixed seeds.
//
// Every library writes the same rows, generated once outside the timed
// region, with the same codec, into memory, and reads its own output back
// into a reused []T in batches of ReadBatch rows. `make bench-peers` runs
// BenchmarkPeers in rounds (-rounds), each running every benchmark once so
// that the libraries take turns, and prints the ratio tables of the best
// run of each (peers/internal/benchratio);
// the raw output is benchstat-compatible (`benchstat -col /impl
// bench-peers.out`). TestRoundTrip, a small version of the same operations,
// checks that each library's output reads back to the rows written.
//
// Metrics of each benchmark (one operation writes or reads all rows):
//
//   - rows/s: rows per second of wall time; cpu-MB/s: the logical bytes of
//     the rows (the same for every library) per second of the process's CPU
//     time (user+system, every thread, so garbage collection counts), which
//     other processes on a shared machine barely disturb. Ratios are taken
//     from cpu-MB/s, so they are ratios of rows per CPU second;
//   - allocs/row and B/row: heap allocations and bytes per row
//     (runtime.MemStats deltas over the timed loop);
//   - peak-MiB: the largest live-heap sample
//     (/memory/classes/heap/objects:bytes, every millisecond, which includes
//     garbage not yet collected) above the heap in use before the operation,
//     in one extra untimed run;
//   - file-MB: the size of the file written (the same for reads);
//   - x-memmove (flat and flat-he): the distance to the physical limit,
//     the CPU time of the operation divided by the time this machine takes
//     to memmove the same bytes, the rows in memory (structs, names and
//     Opt targets) and the file, at the bandwidth of the best of several
//     copies of 64 MiB between three pairs of buffers, measured once per
//     process so that every round is divided by the same;
//   - cores: how many cores two goroutines got just before the timed loop
//     (two copies of a register-only kernel at once against one alone,
//     twoCoreScaling): about 2 on two idle cores, 1 when the second is busy.
//     The suite's 2-vCPU VM went from one to the other within minutes, so
//     pqgen-par's speed-ups mean little without it. benchratio -best prints
//     the least of the rounds.
//
// BenchmarkQueryDuckDB (`make bench-query`) times issue 16's filtered reads
// (a time window with an equality on the kind, and a point lookup on an id,
// over the 2 M sorted events of examples/generated) in pqgen and in DuckDB
// with one thread on the same file, best of several runs, and reports the
// ratio duckdb/pqgen; TestQueryDuckDB checks on fewer events that both
// return the same rows.
//
// The implementation pqgen-par is pqgen's writer with
// runtime.WithParallelism(2) and its reader with
// runtime.WithReadParallelism(2); benchratio prints its column the other
// way round, pqgen-par÷pqgen: its speed-up in wall time (rows/s, MB/s).
// Its CPU time is pqgen's plus the coordination.
package bench

//go:generate go run ./internal/widegen -o wide.go
//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -type Flat,Contact,Wide
