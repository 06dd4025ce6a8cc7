// Package compress implements the page compression codecs of Apache Parquet
// behind one append-style API: [Compress] and [Decompress].
//
// The codecs are those of the CompressionCodec enum of parquet.thrift (see
// the "Compression" section of the format specification,
// https://parquet.apache.org/docs/file-format/data-pages/compression/):
//
//	UNCOMPRESSED (0)  bytes are copied
//	SNAPPY       (1)  Snappy block format (not the framed stream format)
//	GZIP         (2)  RFC 1952; every member of a multi-member stream is read,
//	                  one member is written
//	LZO          (3)  read only: Hadoop block framing, falling back to a bare
//	                  LZO1X stream; writing returns ErrUnsupported
//	BROTLI       (4)  RFC 7932
//	LZ4          (5)  deprecated; read: Hadoop framing, then the LZ4 frame
//	                  format, then a bare LZ4 block; written only through the
//	                  explicit [CompressHadoopLZ4]
//	ZSTD         (6)  RFC 8478 frames (every frame of the input is read)
//	LZ4_RAW      (7)  a bare LZ4 block
//
// # Decompression contract
//
// The page header declares the uncompressed size of every page, so
// [Decompress] always targets that size: it grows dst once by exactly
// uncompressedSize bytes, never produces more (a decompression bomb stops at
// the declared size) and fails with [ErrSizeMismatch] when the stream
// decodes to fewer or more bytes. Choosing the maximum acceptable
// uncompressed size is the caller's job (the page reader bounds it by its
// own limit before calling); this package only guarantees that it does not
// allocate output beyond the size it is given. Decoders keep bounded
// internal state, pooled and reused: a Brotli ring buffer of at most the
// 16 MiB window, LZ4 frame buffers of at most 2 x 4 MiB (the rare frame
// fallback of the LZ4 codec), a 32 KiB gzip window; ZSTD decodes in place.
//
// A zero-length input with a zero uncompressed size is accepted for every
// codec without reaching the codec (a DataPageV2 may hold 0 value bytes).
//
// # Hot path
//
// Both functions append to dst and reuse pooled codec state (gzip, Brotli
// and LZ4 coders in sync.Pools; shared concurrent ZSTD encoders per level
// and one shared ZSTD decoder), so steady-state calls allocate nothing once
// dst has capacity (Brotli decoding excepted: the library allocates a few
// small context maps per stream). All functions are safe for concurrent use.
//
// # Binary size
//
// Every codec is linked by default, so that every file reads. BROTLI is the
// one that costs: its library imports net/http, and together they add
// 3.3 MB to a program with one two-column generated type (10.4 MB, 7.0 MB
// without BROTLI; go1.26, linux/amd64); LZO and the Hadoop LZ4 framing add
// under 10 KB, so they stay. A program
// that never meets BROTLI files can build with -tags pqgen_nobrotli: BROTLI
// pages then fail with [ErrUnsupported] naming the tag, and [CanCompress]
// and [CanDecompress] report false for it.
//
// # Errors
//
// Every error wraps one of the sentinels [ErrUnsupported],
// [ErrSizeMismatch], [ErrCorrupt] or [ErrInvalidLevel] (test with
// errors.Is) and names the codec; the underlying library error, when
// there is one, is wrapped too.
package compress
