//go:build tools

// This file pins the peer libraries the cross-checks and benchmarks use, so
// that go.sum holds them before any test imports them, and the generator
// that bench's go:generate lines run.
package peers

import (
	_ "github.com/apache/arrow-go/v18/arrow/array"
	_ "github.com/apache/arrow-go/v18/parquet"
	_ "github.com/apache/arrow-go/v18/parquet/compress"
	_ "github.com/apache/arrow-go/v18/parquet/file"
	_ "github.com/apache/arrow-go/v18/parquet/pqarrow"
	_ "github.com/parquet-go/parquet-go"
	_ "github.com/parquet-go/parquet-go/encoding"
	_ "github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	_ "github.com/parquet-go/parquet-go/encoding/delta"
	_ "github.com/parquet-go/parquet-go/encoding/plain"
	_ "github.com/parquet-go/parquet-go/encoding/rle"
	_ "github.com/pqgen/pqgen/cmd/pqgen"
	_ "github.com/pqgen/pqgen/runtime/meta"
)
