package compress

import (
	"errors"
	"fmt"

	lzo "github.com/anchore/go-lzo"

	"github.com/pqgen/pqgen/runtime/meta"
)

// decompressLZO decodes LZO (read only). Parquet writers based on Hadoop's
// LzoCodec use the Hadoop block framing around LZO1X chunks; src is read with
// that framing first and as a bare LZO1X stream when the framing does not
// parse to exactly len(out) bytes.
func decompressLZO(out, src []byte) error {
	if decodeHadoop(out, src, lzoChunk) {
		return nil
	}
	m, err := lzoChunk(out, src)
	if err == nil && m == len(out) {
		return nil
	}
	if total, ok := hadoopFramedSize(src); ok && total != len(out) {
		return mismatch(meta.LZO, total, len(out), "per the Hadoop framing")
	}
	if err != nil {
		if errors.Is(err, lzo.ErrOutputOverrun) {
			return mismatch(meta.LZO, -1, len(out), "")
		}
		return corrupt(meta.LZO, fmt.Errorf("neither Hadoop framing nor LZO1X stream: %w", err))
	}
	return mismatch(meta.LZO, m, len(out), "")
}

// lzoChunk decodes one LZO1X stream into dst (bounded by len(dst)).
func lzoChunk(dst, src []byte) (n int, err error) {
	return lzo.Decompress(src, dst)
}
