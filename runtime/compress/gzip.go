package compress

import (
	"bytes"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/pqgen/pqgen/runtime/meta"
)

// appendWriter is an io.Writer appending to a slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// gzipWriterState is the pooled state of one gzip writer at one level.
type gzipWriterState struct {
	w   *gzip.Writer
	out appendWriter
}

// gzipWriters pools writers by level: index 0 is the default level.
var gzipWriters [10]sync.Pool

// compressGzip appends one gzip member holding src to dst.
func compressGzip(dst, src []byte, level Level) ([]byte, error) {
	p := &gzipWriters[level]
	st, _ := p.Get().(*gzipWriterState)
	if st == nil {
		lv := int(level)
		if level == DefaultLevel {
			lv = gzip.DefaultCompression
		}
		st = &gzipWriterState{}
		w, err := gzip.NewWriterLevel(&st.out, lv)
		if err != nil {
			return dst, err
		}
		st.w = w
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

// gzipReaderState is the pooled state of one gzip reader.
type gzipReaderState struct {
	r     gzip.Reader
	src   bytes.Reader
	probe [1]byte
}

var gzipReaders = sync.Pool{New: func() any { return new(gzipReaderState) }}

// decompressGzip decodes every member of a (possibly multi-member) gzip
// stream into out.
func decompressGzip(out, src []byte) error {
	st := gzipReaders.Get().(*gzipReaderState)
	defer gzipReaders.Put(st)
	st.src.Reset(src)
	if err := st.r.Reset(&st.src); err != nil {
		return corrupt(meta.Gzip, err)
	}
	st.r.Multistream(true)
	err := readExact(meta.Gzip, &st.r, out, st.probe[:])
	st.src.Reset(nil)
	return err
}
