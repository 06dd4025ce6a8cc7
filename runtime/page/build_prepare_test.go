package page

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestPrepareFinishSameBytes checks that PrepareDataPage then
// FinishDataPage (or FinishDataPageParts, header then body) append the
// bytes AppendDataPage appends, for both page
// versions, every codec that compresses here, stored and compressed pages,
// with and without levels and CRC, although the parameters' buffers are
// overwritten between the two calls and the builder built other pages
// before.
func TestPrepareFinishSameBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	codecs := []meta.CompressionCodec{meta.Uncompressed, meta.Snappy, meta.Gzip, meta.Zstd, meta.LZ4Raw}
	for _, version := range []int{1, 2} {
		for _, codec := range codecs {
			for _, store := range []bool{false, true} {
				for _, crc := range []bool{false, true} {
					for _, n := range []int{0, 1, 100, 101, 5000, 5001} {
						name := fmt.Sprintf("v%d/%v/store=%v/crc=%v/n=%d", version, codec, store, crc, n)
						p := samplePage(r, version, n)
						p.Store = store
						ref := Builder{Codec: codec, CRC: crc}
						want, wantBuilt, err := ref.AppendDataPage([]byte("head"), p)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						b := Builder{Codec: codec, CRC: crc}
						// A page built before leaves buffers behind.
						if _, _, err := b.AppendDataPage(nil, samplePage(r, version, 300)); err != nil {
							t.Fatal(err)
						}
						if err := b.PrepareDataPage(p); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for _, s := range [][]byte{p.Values, p.Rep, p.Def} {
							for i := range s {
								s[i] = 0xEE
							}
						}
						var got []byte
						var gotBuilt Built
						if n%2 == 0 {
							got, gotBuilt, err = b.FinishDataPage([]byte("head"))
						} else {
							var body []byte
							got, body, gotBuilt, err = b.FinishDataPageParts([]byte("head"))
							got = append(got, body...)
						}
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !bytes.Equal(got, want) || gotBuilt != wantBuilt {
							t.Errorf("%s: Prepare+Finish gave %d bytes %+v, AppendDataPage %d bytes %+v", name, len(got), gotBuilt, len(want), wantBuilt)
						}
						if _, _, err := b.FinishDataPage(nil); err == nil {
							t.Errorf("%s: a second FinishDataPage without PrepareDataPage gave no error", name)
						}
					}
				}
			}
		}
	}
}

// samplePage returns a page of n optional int64 values in a list (max
// repetition level 1, max definition level 2), a quarter of them null.
func samplePage(r *rand.Rand, version, n int) *DataPageParams {
	rep := make([]uint8, n)
	def := make([]uint8, n)
	var vals []int64
	rows := 0
	for i := range n {
		if i == 0 || r.IntN(3) == 0 {
			rows++
		} else {
			rep[i] = 1
		}
		def[i] = 2
		if r.IntN(4) == 0 {
			def[i] = 1
			continue
		}
		vals = append(vals, int64(r.IntN(1000)))
	}
	return &DataPageParams{
		Version: version, NumValues: n, NumNulls: n - len(vals), NumRows: rows, Encoding: meta.EncodingPlain,
		Rep: rep, Def: def, MaxRep: 1, MaxDef: 2, Values: encode.AppendPlainInt64(nil, vals),
		Statistics: &meta.Statistics{NullCount: meta.Some(int64(n - len(vals)))},
	}
}
