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

// This test walks the pages of a few corpus files with a tiny test-only
// Thrift compact reader (the page layer comes later) and decompresses every
// page body with the codec the file name announces.

// pageInfo is what the walk needs from a PageHeader.
type pageInfo struct {
	typ                    int32
	uncompressed, compSize int32
	levels                 int32 // v2: definition + repetition level bytes (never compressed)
	compressed             bool  // v2 is_compressed (default true)
}

// compactReader is a minimal Thrift compact protocol reader.
type compactReader struct {
	b   []byte
	err error
}

func (r *compactReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errors.New("short")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *compactReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *compactReader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (r *compactReader) skip(typ byte, depth int) {
	if depth > 32 {
		r.err = errors.New("too deep")
		return
	}
	switch typ {
	case 1, 2: // bool in a field header
	case 3:
		r.byte()
	case 4, 5, 6:
		r.varint()
	case 7:
		if len(r.b) < 8 {
			r.err = errors.New("short")
			return
		}
		r.b = r.b[8:]
	case 8:
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.err = errors.New("short")
			return
		}
		r.b = r.b[n:]
	case 9, 10:
		h := r.byte()
		n, et := uint64(h>>4), h&15
		if n == 15 {
			n = r.uvarint()
		}
		for i := uint64(0); i < n && r.err == nil; i++ {
			if et == 1 || et == 2 {
				r.byte()
			} else {
				r.skip(et, depth+1)
			}
		}
	case 11:
		n := r.uvarint()
		if n > 0 {
			kv := r.byte()
			for i := uint64(0); i < n && r.err == nil; i++ {
				r.skip(kv>>4, depth+1)
				r.skip(kv&15, depth+1)
			}
		}
	case 12:
		r.fields(depth+1, func(int16, byte) bool { return false })
	default:
		r.err = errors.New("bad type")
	}
}

// fields iterates a struct's fields; visit returns true when it consumed the
// value itself.
func (r *compactReader) fields(depth int, visit func(id int16, typ byte) bool) {
	var id int16
	for r.err == nil {
		h := r.byte()
		if h == 0 {
			return
		}
		typ := h & 15
		if d := h >> 4; d != 0 {
			id += int16(d)
		} else {
			id = int16(r.varint())
		}
		if !visit(id, typ) {
			r.skip(typ, depth)
		}
	}
}

func readPageHeader(b []byte) (pageInfo, int, error) {
	r := &compactReader{b: b}
	p := pageInfo{compressed: true}
	r.fields(0, func(id int16, typ byte) bool {
		switch {
		case id == 1 && typ == 5:
			p.typ = int32(r.varint())
		case id == 2 && typ == 5:
			p.uncompressed = int32(r.varint())
		case id == 3 && typ == 5:
			p.compSize = int32(r.varint())
		case id == 8 && typ == 12:
			r.fields(1, func(id int16, typ byte) bool {
				switch {
				case (id == 5 || id == 6) && typ == 5:
					p.levels += int32(r.varint())
				case id == 7 && (typ == 1 || typ == 2):
					p.compressed = typ == 1
				default:
					return false
				}
				return true
			})
		default:
			return false
		}
		return true
	})
	return p, len(b) - len(r.b), r.err
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
			pos, pages, decoded := 4, 0, 0
			framings := map[string]int{}
			members := 0
			for pos < footerStart {
				p, n, err := readPageHeader(b[pos:footerStart])
				if err != nil || p.typ < 0 || p.typ > 3 || p.compSize < 0 || pos+n+int(p.compSize) > footerStart {
					break // not a page: indexes or bloom filters follow
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
