package page

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// FuzzPageHeader: DecodeHeader and CheckHeader never panic, and a header
// that passes both re-encodes and decodes to the same sizes.
func FuzzPageHeader(f *testing.F) {
	col := Column{Path: "c", Type: meta.Int32, MaxDef: 1}
	f.Add(v1(f, meta.Uncompressed, col, []uint8{1, 0}, nil, meta.EncodingPlain, encode.AppendPlainInt32(nil, []int32{1})))
	f.Add(v2(f, meta.Snappy, col, []uint8{1, 0}, nil, meta.EncodingPlain, encode.AppendPlainInt32(nil, []int32{1}), true))
	f.Add(dictPage(f, meta.Uncompressed, 1, encode.AppendPlainInt32(nil, []int32{1})))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var h meta.PageHeader
		n, err := DecodeHeader(&h, b, 1<<16)
		if err != nil {
			if !errors.Is(err, ErrHeader) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error class: %v", err)
			}
			return
		}
		if n > len(b) {
			t.Fatalf("consumed %d of %d bytes", n, len(b))
		}
		if err := CheckHeader(&h, int64(len(b)-n), Limits{MaxPageSize: 1 << 20, MaxValues: 1 << 16}); err != nil {
			return
		}
		var h2 meta.PageHeader
		enc := h.AppendThrift(nil)
		if _, err := DecodeHeader(&h2, enc, 0); err != nil {
			t.Fatalf("re-encoded header does not decode: %v", err)
		}
		if h2.CompressedPageSize != h.CompressedPageSize || h2.UncompressedPageSize != h.UncompressedPageSize || h2.Type != h.Type {
			t.Fatalf("round trip changed the header: %+v vs %+v", h, h2)
		}
	})
}

// FuzzDecodePage: a chunk of arbitrary bytes read as a column of any
// physical type, levels and codec never panics, and every failure is a
// *Error. Seeds are valid pages of every encoding under every codec.
func FuzzDecodePage(f *testing.F) {
	for _, codec := range codecs {
		col := Column{Type: meta.Int32, MaxDef: 1, MaxRep: 1, Codec: codec}
		def, rep := []uint8{1, 0, 1}, []uint8{0, 1, 0}
		vals := encode.AppendPlainInt32(nil, []int32{4, 5})
		f.Add(v1(f, codec, col, def, rep, meta.EncodingPlain, vals), uint8(codec), uint8(meta.Int32), uint8(1), uint8(1))
		f.Add(v2(f, codec, col, def, rep, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt32(nil, []int32{4, 5}), true), uint8(codec), uint8(meta.Int32), uint8(1), uint8(1))
		var ba encode.ByteArrays
		ba.AppendString("x")
		ba.AppendString("yz")
		f.Add(append(dictPage(f, codec, 2, encode.AppendPlainByteArray(nil, ba)),
			v1(f, codec, Column{Type: meta.ByteArray, MaxDef: 1}, def, nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, []int32{1, 0}, 1))...),
			uint8(codec), uint8(meta.ByteArray), uint8(1), uint8(0))
		f.Add(v2(f, codec, Column{Type: meta.Boolean}, nil, nil, meta.EncodingRLE, encode.AppendRLEBool(nil, []bool{true, false, true}), true)[:0], uint8(codec), uint8(meta.Boolean), uint8(0), uint8(0))
		rcol := Column{Type: meta.Int64, Codec: codec}
		f.Add(v1(f, codec, rcol, make([]uint8, 5), nil, meta.EncodingRLE, encode.AppendRLEInt32Prefixed(nil, []int32{9, 9, 9, 9, 1}, 4)), uint8(codec), uint8(meta.Int64), uint8(4<<2), uint8(0))
		// A page of nulls whose DELTA values section is empty (Page.EmptyValues).
		f.Add(v1(f, codec, Column{Type: meta.Int64, MaxDef: 1}, []uint8{0, 0, 0}, nil, meta.EncodingDeltaBinaryPacked, nil), uint8(codec), uint8(meta.Int64), uint8(1), uint8(0))
		dcol := Column{Type: meta.Double, MaxDef: 1, Codec: codec}
		f.Add(v1(f, codec, dcol, []uint8{1, 0, 1}, nil, meta.EncodingALP, encode.AppendALPDouble(nil, []float64{1.25, 3})), uint8(codec), uint8(meta.Double), uint8(1), uint8(0))
		f.Add(v2(f, codec, Column{Type: meta.Float, Codec: codec}, nil, nil, meta.EncodingALP, encode.AppendALPFloat(nil, []float32{0.5, -2, 7.75}), true), uint8(codec), uint8(meta.Float), uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, chunk []byte, codec, typ, maxDef, maxRep uint8) {
		col := Column{
			Path:       "fuzz",
			Type:       meta.Type(typ % 8),
			TypeLength: 3,
			MaxDef:     maxDef % 4,
			MaxRep:     maxRep % 3,
			Codec:      meta.CompressionCodec(codec % 8),
			// ARROW-10353 reading: v2 values decompressed whatever
			// is_compressed says.
			V2AlwaysCompressed: typ&0x10 != 0,
			// parquetjs's RLE integers: widths 0 (refused) to 33.
			RLEBitWidth: int(maxDef>>2) % 34,
		}
		var cr ChunkReader
		cr.Reset(bytes.NewReader(chunk), 0, int64(len(chunk)), col, ChunkOptions{
			Limits:        Limits{MaxPageSize: 1 << 20, MaxValues: 1 << 16, MaxHeaderSize: 1 << 16},
			VerifyCRC:     typ&0x80 != 0,
			Sparse:        typ&0x40 != 0,
			LazyDictBytes: typ&0x20 != 0,
		})
		for i := range 64 {
			if typ&0x40 != 0 && i%2 == 1 {
				// Skip every other page.
				if _, err := cr.SkipPage(); err != nil {
					return
				}
				continue
			}
			p, err := cr.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Fatalf("error is not a *page.Error: %v", err)
				}
				return
			}
			if col.MaxDef > 0 && len(p.Def) != p.NumValues || col.MaxRep > 0 && len(p.Rep) != p.NumValues {
				t.Fatalf("%d slots but %d/%d levels", p.NumValues, len(p.Def), len(p.Rep))
			}
			nn := p.NumValues
			if col.MaxDef > 0 {
				nn = 0
				for _, d := range p.Def {
					if d == col.MaxDef {
						nn++
					}
				}
			}
			got := p.Values.Len(col.Type, col.TypeLength)
			if p.DictBytes != nil {
				got = len(p.Indices)
				for _, i := range p.Indices {
					_ = p.DictBytes.At(int(i)) // in range, or this panics
				}
			}
			if got != nn {
				t.Fatalf("%d values for %d non-null slots", got, nn)
			}
		}
	})
}
