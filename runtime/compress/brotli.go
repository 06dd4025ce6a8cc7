//go:build !pqgen_nobrotli

// BROTLI (codec 4, RFC 7932) through github.com/andybalholm/brotli; a
// program built with -tags pqgen_nobrotli leaves it out (brotli_off.go).
// https://parquet.apache.org/docs/file-format/data-pages/compression/

package compress

import (
	"bytes"
	"sync"

	"github.com/andybalholm/brotli"

	"github.com/pqgen/pqgen/runtime/meta"
)

// brotliLinked reports that this build reads and writes BROTLI.
const brotliLinked = true

// brotliDefaultQuality is the quality used for DefaultLevel.
const brotliDefaultQuality = 6

type brotliWriterState struct {
	w   *brotli.Writer
	out appendWriter
}

// brotliWriters pools writers by quality; index 0 is the default quality.
var brotliWriters [12]sync.Pool

// compressBrotli appends the Brotli stream of src to dst.
func compressBrotli(dst, src []byte, level Level) ([]byte, error) {
	p := &brotliWriters[level]
	st, _ := p.Get().(*brotliWriterState)
	if st == nil {
		q := int(level)
		if level == DefaultLevel {
			q = brotliDefaultQuality
		}
		st = &brotliWriterState{}
		st.w = brotli.NewWriterLevel(&st.out, q)
	}
	st.out.b = dst
	st.w.Reset(&st.out)
	_, err := st.w.Write(src)
	if err == nil {
		err = st.w.Close()
	}
	out := st.out.b
	st.out.b = nil
	p.Put(st)
	if err != nil {
		return dst, err
	}
	return out, nil
}

type brotliReaderState struct {
	r     brotli.Reader
	src   bytes.Reader
	probe [1]byte
}

var brotliReaders = sync.Pool{New: func() any { return new(brotliReaderState) }}

// decompressBrotli decodes a Brotli stream into out.
func decompressBrotli(out, src []byte) error {
	st := brotliReaders.Get().(*brotliReaderState)
	defer brotliReaders.Put(st)
	st.src.Reset(src)
	_ = st.r.Reset(&st.src) // always nil
	err := readExact(meta.Brotli, &st.r, out, st.probe[:])
	st.src.Reset(nil)
	return err
}
