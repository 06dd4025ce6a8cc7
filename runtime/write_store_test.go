package runtime

import (
	"bytes"
	"slices"
	"testing"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/meta"
)

// TestIncompressiblePagesStored: the data pages of a column the codec
// cannot shrink (random 64-bit integers) are stored after the first, in
// runs of 1, 2, 4, ... up to probeMaxRun between compressed probes, while
// a compressible column keeps compressing every page. When no encoding is
// configured, the encoding trial compresses a sample of the first page,
// which counts as the first failed probe: that page is stored too. DATA_PAGE_V2 pages
// say so in is_compressed. The body of a stored DATA_PAGE is exactly the
// codec's stored form of the raw body (compress.AppendStored), which for
// random bytes the codecs' own output may equal too, so there only stored
// pages are checked (and the compressible column's pages are never in
// stored form). Every value reads back.
func TestIncompressiblePagesStored(t *testing.T) {
	for _, auto := range []bool{false, true} {
		name := "configured"
		if auto {
			name = "trial"
		}
		t.Run(name, func(t *testing.T) { testPagesStored(t, auto) })
	}
}

func testPagesStored(t *testing.T, auto bool) {
	const pages, perPage = 60, 1000
	// The pattern: true = stored.
	var want []bool
	left, run := 0, 0
	if auto {
		left, run = 1, 1
	}
	for range pages {
		if left > 0 {
			want = append(want, true)
			left--
			continue
		}
		want = append(want, false)
		run = min(max(2*run, 1), probeMaxRun)
		left = run
	}
	s := mustSchema(t, "message m { required int64 noise; required int64 steady; }")
	for _, codec := range []meta.CompressionCodec{meta.Snappy, meta.Zstd, meta.Gzip} {
		for _, version := range []int{1, 2} {
			var buf bytes.Buffer
			opts := []WriterOption{WithCompression(codec, 0), WithDataPageVersion(version), WithPageRowLimit(perPage), WithDictionary(false)}
			if !auto {
				opts = append(opts, WithColumnEncoding("noise", meta.EncodingPlain), WithColumnEncoding("steady", meta.EncodingPlain))
			}
			w, err := NewFileWriter(&buf, s, opts...)
			if err != nil {
				t.Fatal(err)
			}
			noise, _ := w.Int64Buffer(0)
			steady, _ := w.Int64Buffer(1)
			rnd := newRand(5)
			for i := range pages * perPage {
				noise.Values = append(noise.Values, int64(rnd.Uint64()))
				steady.Values = append(steady.Values, int64(i%7))
			}
			if err := w.EndRows(pages * perPage); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			f := openBytes(t, data)
			for col := range 2 {
				var got []bool
				for i, loc := range offsetIndexOf(t, f, 0, col).PageLocations {
					h, n, err := meta.DecodePageHeader(data[loc.Offset:], nil)
					if err != nil {
						t.Fatal(err)
					}
					body := data[loc.Offset+int64(n) : loc.Offset+int64(loc.CompressedPageSize)]
					if version == 2 {
						got = append(got, !h.DataPageHeaderV2.IsCompressed.Or(true))
						continue
					}
					raw, err := compress.Decompress(nil, body, codec, int(h.UncompressedPageSize))
					if err != nil {
						t.Fatalf("%v v%d column %d page %d: %v", codec, version, col, i, err)
					}
					stored, ok := compress.AppendStored(nil, raw, codec)
					got = append(got, ok && bytes.Equal(stored, body))
				}
				expect := want
				if col == 1 || version == 1 && !compress.CanStore(codec) {
					expect = make([]bool, pages)
				}
				if version == 1 && col == 0 && compress.CanStore(codec) {
					for i, st := range expect {
						got[i] = got[i] && st // a compressed page may look stored
					}
				}
				if !slices.Equal(got, expect) {
					t.Errorf("%v v%d column %d: stored pages\n got %v\nwant %v", codec, version, col, got, expect)
				}
			}
			r, err := NewFileReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			c, _ := r.Int64Reader(0)
			if k, err := c.ReadRows(pages * perPage); k != pages*perPage || err != nil {
				t.Fatalf("read %d, %v", k, err)
			}
			if !slices.Equal(c.Values, regen(pages*perPage)) {
				t.Fatalf("%v v%d: values differ", codec, version)
			}
		}
	}
}

// regen returns the noise column of TestIncompressiblePagesStored.
func regen(n int) []int64 {
	rnd := newRand(5)
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(rnd.Uint64())
	}
	return out
}
