package bloom

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestCorpusFiles reads the bloom filters of the corpus files that carry
// them (found through the footer) and checks that the column's min and max
// values, which are values of the column, are present.
func TestCorpusFiles(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "data")
	for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			flen := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			md, _, err := meta.DecodeFileMetaData(b[len(b)-8-flen:len(b)-8], nil)
			if err != nil {
				t.Fatal(err)
			}
			filters := 0
			for _, rg := range md.RowGroups {
				for _, cc := range rg.Columns {
					cm := cc.MetaData
					if cm == nil || !cm.BloomFilterOffset.Set {
						continue
					}
					off := cm.BloomFilterOffset.Val
					length := int64(cm.BloomFilterLength.Or(0))
					f, err := ReadAt(bytes.NewReader(b), off, length, 0)
					if err != nil {
						t.Fatal(err)
					}
					p, n, err := Parse(b[off:], 0)
					if err != nil || !bytes.Equal(p.Bytes(), f.Bytes()) {
						t.Fatalf("Parse: %v", err)
					}
					if length > 0 && int64(n) != length {
						t.Errorf("bloom_filter_length %d, filter occupies %d", length, n)
					}
					if st := cm.Statistics; st != nil {
						for _, v := range [][]byte{st.MinValue, st.MaxValue, st.Min, st.Max} {
							if v != nil && !f.Check(HashBytes(v)) {
								t.Errorf("statistics value %q missing from the filter", v)
							}
						}
					}
					absent := 0
					for _, w := range randomWords(1000) {
						if !f.Check(HashString(w)) {
							absent++
						}
					}
					if absent < 990 {
						t.Errorf("only %d of 1000 absent strings rejected", absent)
					}
					t.Logf("column %v: %d-byte bitset at %d (length %d)", cm.PathInSchema, f.NumBytes(), off, length)
					filters++
				}
			}
			if filters == 0 {
				t.Fatal("no bloom filter found")
			}
		})
	}
}
