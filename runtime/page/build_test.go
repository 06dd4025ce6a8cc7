package page

import (
	"bytes"
	"hash/crc32"
	"testing"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

func TestBuildDataPageV1(t *testing.T) {
	b := Builder{Codec: meta.Uncompressed, CRC: true}
	def := []uint8{1, 0, 1, 1}
	vals := encode.AppendPlainInt32(nil, []int32{7, 8, 9})
	out, built, err := b.AppendDataPage([]byte("xx"), &DataPageParams{
		Version: 1, NumValues: 4, NumNulls: 1, NumRows: 4, Encoding: meta.EncodingPlain,
		Def: def, MaxDef: 1, Values: vals,
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(out[:2]) != "xx" || len(out) != 2+built.Size() {
		t.Fatalf("appended %d bytes, built %+v", len(out)-2, built)
	}
	h, n, err := meta.DecodePageHeader(out[2:], nil)
	if err != nil || n != built.HeaderSize {
		t.Fatalf("header: %v (%d bytes, built says %d)", err, n, built.HeaderSize)
	}
	body := out[2+n:]
	if h.Type != meta.DataPage || h.DataPageHeader.NumValues != 4 || h.DataPageHeader.Encoding != meta.EncodingPlain ||
		h.DataPageHeader.DefinitionLevelEncoding != meta.EncodingRLE || int(h.CompressedPageSize) != len(body) ||
		h.UncompressedPageSize != h.CompressedPageSize {
		t.Errorf("header %+v %+v", h, h.DataPageHeader)
	}
	if !h.CRC.Set || uint32(h.CRC.Val) != crc32.ChecksumIEEE(body) {
		t.Errorf("crc %+v", h.CRC)
	}
	gotDef, k, err := encode.DecodeRLELevelsPrefixed(nil, body, 1, 4)
	if err != nil || !bytes.Equal(gotDef, def) {
		t.Fatalf("levels %v %v", gotDef, err)
	}
	if !bytes.Equal(body[k:], vals) {
		t.Errorf("values section %x, want %x", body[k:], vals)
	}
}

func TestBuildDataPageV2(t *testing.T) {
	b := Builder{Codec: meta.Zstd}
	rep := []uint8{0, 1, 0}
	def := []uint8{2, 2, 0}
	vals := encode.AppendPlainInt64(nil, []int64{1, 2})
	out, built, err := b.AppendDataPage(nil, &DataPageParams{
		Version: 2, NumValues: 3, NumNulls: 1, NumRows: 2, Encoding: meta.EncodingPlain,
		Rep: rep, Def: def, MaxRep: 1, MaxDef: 2, Values: vals,
	})
	if err != nil {
		t.Fatal(err)
	}
	h, n, err := meta.DecodePageHeader(out, nil)
	if err != nil || h.CRC.Set {
		t.Fatal(err, h.CRC)
	}
	v2 := h.DataPageHeaderV2
	if h.Type != meta.DataPageV2 || v2.NumRows != 2 || v2.NumNulls != 1 || v2.NumValues != 3 || !v2.Compressed() {
		t.Errorf("header %+v", v2)
	}
	body := out[n:]
	rl, dl := int(v2.RepetitionLevelsByteLength), int(v2.DefinitionLevelsByteLength)
	gotRep, _, err := encode.DecodeRLELevels(nil, body[:rl], 1, 3)
	if err != nil || !bytes.Equal(gotRep, rep) {
		t.Errorf("rep %v %v", gotRep, err)
	}
	gotDef, _, err := encode.DecodeRLELevels(nil, body[rl:rl+dl], 2, 3)
	if err != nil || !bytes.Equal(gotDef, def) {
		t.Errorf("def %v %v", gotDef, err)
	}
	plain, err := compress.Decompress(nil, body[rl+dl:], meta.Zstd, int(h.UncompressedPageSize)-rl-dl)
	if err != nil || !bytes.Equal(plain, vals) {
		t.Errorf("values %x %v", plain, err)
	}
	if built.UncompressedSize != rl+dl+len(vals) {
		t.Errorf("uncompressed size %d", built.UncompressedSize)
	}
	// Uncompressed v2 pages say so.
	b = Builder{}
	out, _, _ = b.AppendDataPage(nil, &DataPageParams{Version: 2, NumValues: 1, NumRows: 1, Values: vals[:8]})
	h, _, _ = meta.DecodePageHeader(out, nil)
	if h.DataPageHeaderV2.Compressed() {
		t.Error("uncompressed v2 page claims compression")
	}
}

// TestBuildDataPageV2AllNulls checks that a v2 page without values (every
// slot null) stores its empty values section uncompressed: arrow-go
// v18.8.0 fails on the compressed form with Brotli (found by
// peers/genfuzz).
func TestBuildDataPageV2AllNulls(t *testing.T) {
	for _, codec := range []meta.CompressionCodec{meta.Brotli, meta.Snappy, meta.Zstd} {
		b := Builder{Codec: codec}
		def := []uint8{0, 0, 0}
		out, built, err := b.AppendDataPage(nil, &DataPageParams{
			Version: 2, NumValues: 3, NumNulls: 3, NumRows: 3, Encoding: meta.EncodingPlain, Def: def, MaxDef: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		h, n, err := meta.DecodePageHeader(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		v2 := h.DataPageHeaderV2
		lv := encode.AppendRLELevels(nil, def, 1)
		if v2.Compressed() || !bytes.Equal(out[n:], lv) || int(v2.DefinitionLevelsByteLength) != len(lv) ||
			built.CompressedSize != len(lv) || built.UncompressedSize != len(lv) {
			t.Errorf("%s: header %+v, body %x, built %+v; want uncompressed body %x", codec, v2, out[n:], built, lv)
		}
	}
}

func TestBuildDictionaryPage(t *testing.T) {
	b := Builder{Codec: meta.Snappy, CRC: true}
	vals := encode.AppendPlainInt32(nil, []int32{3, 1, 2})
	out, built, err := b.AppendDictionaryPage(nil, 3, meta.EncodingPlain, vals)
	if err != nil {
		t.Fatal(err)
	}
	h, n, err := meta.DecodePageHeader(out, nil)
	if err != nil || h.Type != meta.DictionaryPage || h.DictionaryPageHeader.NumValues != 3 || n != built.HeaderSize {
		t.Fatalf("%+v %v", h, err)
	}
	if uint32(h.CRC.Val) != crc32.ChecksumIEEE(out[n:]) {
		t.Error("crc")
	}
	plain, err := compress.Decompress(nil, out[n:], meta.Snappy, int(h.UncompressedPageSize))
	if err != nil || !bytes.Equal(plain, vals) {
		t.Errorf("body %x %v", plain, err)
	}
	if _, _, err := b.AppendDataPage(nil, &DataPageParams{Version: 3}); err == nil {
		t.Error("version 3 accepted")
	}
}
