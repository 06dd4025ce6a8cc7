package runtime

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// FuzzReadFile opens arbitrary bytes as a Parquet file and reads every
// column to the end: it must never panic, hang or allocate beyond the
// limits. One input in three is read as a MemoryFile, whose bytes must
// not change. Seeds: the small files of the corpus, synthetic files and
// the deviation files (testdata/deviations).
// The seeds are several kilobytes, so run it with a bounded
// minimization (-fuzzminimizetime=100x): Go's default spends up to 60 s
// minimizing each new interesting input, which looks like a stall.
func FuzzReadFile(f *testing.F) {
	f.Add(benchFile(f, 300))
	f.Add(smallIndexedFile(f))
	addDeviationSeeds(f)
	if dir, ok := corpus.Lookup(); ok {
		for _, sub := range []string{"data", "bad_data"} {
			ents, _ := os.ReadDir(filepath.Join(dir, sub))
			for _, e := range ents {
				if !strings.HasSuffix(e.Name(), ".parquet") {
					continue
				}
				if info, err := e.Info(); err != nil || info.Size() > 64<<10 {
					continue
				}
				if b, err := os.ReadFile(filepath.Join(dir, sub, e.Name())); err == nil {
					f.Add(b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// One input in three is read in place, as a MemoryFile, which
		// must leave its bytes as they were.
		var src io.ReaderAt = bytes.NewReader(data)
		if len(data)%3 == 0 {
			orig := bytes.Clone(data)
			src = MemoryFile(data)
			defer func() {
				if !bytes.Equal(data, orig) {
					t.Fatal("reading a MemoryFile changed its bytes")
				}
			}()
		}
		fr, err := NewFileReader(src, int64(len(data)),
			WithMaxFooterSize(1<<20), WithMaxPageSize(1<<20), WithMaxPageValues(1<<16), WithCRCCheck(len(data)%2 == 0),
			WithMetaLimits(meta.Limits{MaxStringLen: 1 << 16, MaxContainerLen: 1 << 12, MaxDepth: 32}))
		if err != nil {
			return
		}
		// Keep each input cheap: every chunk may claim the whole file.
		if len(fr.File().Meta.RowGroups)*len(fr.File().Schema.Leaves) > 256 {
			return
		}
		for col := range fr.File().Schema.Leaves {
			readFuzzColumn(fr, col)
		}
		// Again with rows selected by the page index of the first leaf.
		if leaves := fr.File().Schema.Leaves; len(leaves) > 0 {
			fr2, err := NewFileReader(src, int64(len(data)),
				WithMaxFooterSize(1<<20), WithMaxPageSize(1<<20), WithMaxPageValues(1<<16),
				WithMetaLimits(meta.Limits{MaxStringLen: 1 << 16, MaxContainerLen: 1 << 12, MaxDepth: 32}),
				WithColumnPageFilter(leaves[0].PathString(), func(_ *File, _ int, _ *meta.ColumnIndex, p int) bool { return p%2 == 1 }))
			if err == nil {
				for col := range leaves {
					readFuzzColumn(fr2, col)
				}
			}
		}
		for rg := range fr.File().Meta.RowGroups {
			for col := range fr.File().Schema.Leaves {
				fr.BloomFilter(rg, col)
				fr.ColumnIndex(rg, col)
				fr.OffsetIndex(rg, col)
			}
		}
	})
}

func readFuzzColumn(fr *FileReader, col int) {
	readFuzzColumnAs(fr, col, fr.File().Schema.Leaves[col].Type)
}

// readFuzzColumnAs reads leaf column col with the typed reader of t (the
// physical type of the leaf it is bound to).
func readFuzzColumnAs(fr *FileReader, col int, t meta.Type) {
	type rr interface{ ReadRows(int) (int, error) }
	var r rr
	var bytesReader *ByteArrayReader
	switch t {
	case meta.Boolean:
		r, _ = fr.BoolReader(col)
	case meta.Int32:
		r, _ = fr.Int32Reader(col)
	case meta.Int64:
		r, _ = fr.Int64Reader(col)
	case meta.Int96:
		r, _ = fr.Int96Reader(col)
	case meta.Float:
		r, _ = fr.FloatReader(col)
	case meta.Double:
		r, _ = fr.DoubleReader(col)
	case meta.ByteArray:
		bytesReader, _ = fr.ByteArrayReader(col)
		r = bytesReader
	case meta.FixedLenByteArray:
		r, _ = fr.FixedReader(col)
	}
	if r == nil {
		return
	}
	for range 1000 {
		n, err := r.ReadRows(97)
		if err == io.EOF || err != nil || n == 0 {
			return
		}
		if bytesReader != nil {
			for i := range bytesReader.Values.Len() {
				_ = bytesReader.String(i)
			}
		}
	}
}

// smallIndexedFile is a file of 20 rows in 4 pages per column, with a
// page index: a seed for the page-skipping paths.
func smallIndexedFile(tb testing.TB) []byte {
	var ids, strs []synthPage
	for p := range 4 {
		iv := make([]int64, 5)
		var ba encode.ByteArrays
		def := make([]uint8, 5)
		for i := range 5 {
			iv[i] = int64(5*p + i)
			if i%2 == 0 {
				def[i] = 1
				ba.AppendString(strings.Repeat("x", i+p))
			}
		}
		ids = append(ids, synthPage{n: 5, enc: meta.EncodingPlain, values: encode.AppendPlainInt64(nil, iv)})
		strs = append(strs, synthPage{def: def, enc: meta.EncodingPlain, values: encode.AppendPlainByteArray(nil, ba)})
	}
	synthIndex = true
	defer func() { synthIndex = false }()
	return synthFile(tb, `message m { required int64 id; optional binary s (STRING); }`, []int64{20}, [][][]synthPage{{ids, strs}})
}

// addDeviationSeeds adds the files of testdata/deviations (DuckDB's and
// hyparquet-writer's deviations, read leniently) to f.
func addDeviationSeeds(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "deviations", "*.parquet"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no deviation files: %v", err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}
