package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
)

// This test walks the pages of a few corpus files (headers decoded by
// runtime/meta) and decompresses every page body with the codec the file
// name announces, independently of the page layer.

// pageInfo is what the walk needs from a PageHeader.
type pageInfo struct {
	typ                    int32
	uncompressed, compSize int32
	levels                 int32 // v2: definition + repetition level bytes (never compressed)
	compressed             bool  // v2 is_compressed (default true)
}

// readPageHeader decodes the page header at the start of b with
// runtime/meta's codec.
func readPageHeader(b []byte) (pageInfo, int, error) {
	var h meta.PageHeader
	n, err := h.DecodeThrift(b, nil)
	if err != nil {
		return pageInfo{}, n, err
	}
	p := pageInfo{typ: int32(h.Type), uncompressed: h.UncompressedPageSize, compSize: h.CompressedPageSize, compressed: true}
	if v2 := h.DataPageHeaderV2; v2 != nil {
		p.levels = v2.DefinitionLevelsByteLength + v2.RepetitionLevelsByteLength
		p.compressed = v2.Compressed()
	}
	return p, n, nil
}

func TestCorpusPages(t *testing.T) {
	dir := filepath.Join(corpus.Dir(t), "data")
	const maxPage = 16 << 20
	for _, tc := range []struct {
		file    string
		codec   meta.CompressionCodec
		framing string // LZ4: the framing of every non-empty page
	}{
		{"alltypes_plain.snappy.parquet", meta.Snappy, ""},
		{"datapage_v2.snappy.parquet", meta.Snappy, ""},
		{"datapage_v2_empty_datapage.snappy.parquet", meta.Snappy, ""},
		{"nulls.snappy.parquet", meta.Snappy, ""},
		{"concatenated_gzip_members.parquet", meta.Gzip, ""},
		{"large_string_map.brotli.parquet", meta.Brotli, ""},
		{"byte_stream_split.zstd.parquet", meta.Zstd, ""},
		{"page_v2_empty_compressed.parquet", meta.Zstd, ""},
		{"hadoop_lz4_compressed.parquet", meta.LZ4, "hadoop"},
		{"non_hadoop_lz4_compressed.parquet", meta.LZ4, "raw-block"},
		{"lz4_raw_compressed.parquet", meta.LZ4Raw, ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, tc.file))
			if errors.Is(err, os.ErrNotExist) {
				t.Skipf("%s is not in this corpus copy", tc.file)
			}
			if err != nil {
				t.Fatal(err)
			}
			footerStart := len(b) - 8 - int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			md, _, err := meta.DecodeFileMetaData(b[footerStart:len(b)-8], nil)
			if err != nil {
				t.Fatal(err)
			}
			pages, decoded := 0, 0
			framings := map[string]int{}
			members := 0
			// Walk the pages of every column chunk, within the chunk's bytes
			// as the footer gives them (old writers put metadata between
			// chunks, so the file cannot be walked as one run of pages).
			for _, rg := range md.RowGroups {
				for _, cc := range rg.Columns {
					cm := cc.MetaData
					start := cm.DataPageOffset
					if d, ok := cm.DictionaryPageOffset.Get(); ok && d > 0 && d < start {
						start = d
					}
					end := start + cm.TotalCompressedSize
					if start < 4 || end > int64(footerStart) || end < start {
						t.Fatalf("chunk %v: bytes [%d, %d) outside the data", cm.PathInSchema, start, end)
					}
					for pos := int(start); pos < int(end); {
						p, n, err := readPageHeader(b[pos:end])
						if err != nil || p.typ < 0 || p.typ > 3 || p.compSize < 0 || pos+n+int(p.compSize) > int(end) {
							t.Fatalf("chunk %v: no page header at %d: %v", cm.PathInSchema, pos, err)
						}
						body := b[pos+n : pos+n+int(p.compSize)]
						pos += n + int(p.compSize)
						pages++
						if p.typ == 1 { // index page: never written
							continue
						}
						if p.levels > 0 {
							if int(p.levels) > len(body) || p.levels > p.uncompressed {
								t.Fatalf("page %d: bad level lengths", pages)
							}
							body = body[p.levels:]
							p.uncompressed -= p.levels
						}
						if !p.compressed {
							continue
						}
						if p.uncompressed > maxPage {
							t.Logf("page %d declares %d bytes: not decoded here", pages, p.uncompressed)
							continue
						}
						out, err := Decompress(nil, body, tc.codec, int(p.uncompressed))
						if err != nil {
							t.Fatalf("page %d (type %d, %d -> %d bytes): %v", pages, p.typ, len(body), p.uncompressed, err)
						}
						if len(out) != int(p.uncompressed) {
							t.Fatalf("page %d: %d bytes", pages, len(out))
						}
						decoded++
						if tc.codec == meta.LZ4 && len(body) > 0 {
							f := lz4Framing(body, int(p.uncompressed))
							framings[f]++
							if f != tc.framing {
								t.Errorf("page %d uses the %s framing, want %s", pages, f, tc.framing)
							}
						}
						if tc.codec == meta.Gzip {
							members += bytes.Count(body, []byte{0x1f, 0x8b, 8})
						}
					}
				}
			}
			if pages == 0 || decoded == 0 {
				t.Fatal("no page decoded")
			}
			if tc.file == "concatenated_gzip_members.parquet" && members < 2 {
				t.Errorf("%d gzip members, want 2", members)
			}
			t.Logf("%d pages, %d decoded; LZ4 framings %v", pages, decoded, framings)
		})
	}
}

// lz4Framing names the framing decompressLZ4 accepted for src.
func lz4Framing(src []byte, size int) string {
	out := make([]byte, size)
	switch {
	case len(src) == 0:
		return "empty"
	case decodeHadoop(out, src, lz4Chunk):
		return "hadoop"
	case len(src) >= 4 && binary.LittleEndian.Uint32(src) == lz4FrameMagic:
		return "lz4-frame"
	}
	return "raw-block"
}
