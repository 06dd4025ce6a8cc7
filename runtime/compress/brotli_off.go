//go:build pqgen_nobrotli

// BROTLI left out of the build (-tags pqgen_nobrotli): the Brotli library
// and the net/http it imports add about 2.2 MB to a program; a build that
// never meets a BROTLI file can drop them. Pages compressed with BROTLI then
// fail with ErrUnsupported, naming the tag.
// https://parquet.apache.org/docs/file-format/data-pages/compression/

package compress

import "github.com/pqgen/pqgen/runtime/meta"

// brotliLinked reports that this build reads and writes BROTLI.
const brotliLinked = false

// compressBrotli and decompressBrotli are not reached: CanDecompress
// reports BROTLI missing, and Compress and Decompress check it first.
func compressBrotli(dst, _ []byte, _ Level) ([]byte, error) { return dst, unsupportedRead(meta.Brotli) }

func decompressBrotli(_, _ []byte) error { return unsupportedRead(meta.Brotli) }
