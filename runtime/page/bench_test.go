package page

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// benchChunk reads a chunk of pages pages, all equal, b.N times.
func benchChunk(b *testing.B, col Column, pageBytes []byte, prefix []byte, pages, rawBytes int) {
	chunk := append([]byte{}, prefix...)
	for range pages {
		chunk = append(chunk, pageBytes...)
	}
	b.SetBytes(int64(rawBytes * pages))
	b.ReportAllocs()
	var cr ChunkReader
	r := bytes.NewReader(chunk)
	b.ResetTimer()
	for range b.N {
		cr.Reset(r, 0, int64(len(chunk)), col, ChunkOptions{})
		for {
			_, err := cr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkDecodeInt64Plain(b *testing.B) {
	col := Column{Type: meta.Int64, Codec: meta.Snappy}
	v := make([]int64, 10000)
	for i := range v {
		v[i] = int64(i * 3)
	}
	benchChunk(b, col, v1(b, meta.Snappy, col, make([]uint8, len(v)), nil, meta.EncodingPlain, encode.AppendPlainInt64(nil, v)), nil, 20, 80000)
}

func BenchmarkDecodeInt64Delta(b *testing.B) {
	col := Column{Type: meta.Int64}
	v := make([]int64, 10000)
	for i := range v {
		v[i] = int64(i*3 + i%7)
	}
	benchChunk(b, col, v1(b, meta.Uncompressed, col, make([]uint8, len(v)), nil, meta.EncodingDeltaBinaryPacked, encode.AppendDeltaInt64(nil, v)), nil, 20, 80000)
}

func BenchmarkDecodeOptionalInt64(b *testing.B) {
	col := Column{Type: meta.Int64, MaxDef: 1}
	def := make([]uint8, 10000)
	var v []int64
	for i := range def {
		if i%10 != 0 {
			def[i] = 1
			v = append(v, int64(i))
		}
	}
	benchChunk(b, col, v2(b, meta.Uncompressed, col, def, nil, meta.EncodingPlain, encode.AppendPlainInt64(nil, v), false), nil, 20, 9*10000)
}

func BenchmarkDecodeStringDict(b *testing.B) {
	col := Column{Type: meta.ByteArray}
	var d encode.ByteArrays
	for i := range 100 {
		d.AppendString(fmt.Sprintf("value-%03d-padding", i))
	}
	idx := make([]int32, 10000)
	for i := range idx {
		idx[i] = int32(i * 7 % 100)
	}
	dict := dictPage(b, meta.Uncompressed, 100, encode.AppendPlainByteArray(nil, d))
	benchChunk(b, col, v1(b, meta.Uncompressed, col, make([]uint8, len(idx)), nil, meta.EncodingRLEDictionary, encode.AppendDictIndices(nil, idx, 7)), dict, 20, 17*10000)
}

func BenchmarkDecodeStringDeltaLength(b *testing.B) {
	col := Column{Type: meta.ByteArray}
	var v encode.ByteArrays
	for i := range 10000 {
		v.AppendString(fmt.Sprintf("value-%05d", i))
	}
	benchChunk(b, col, v1(b, meta.Uncompressed, col, make([]uint8, 10000), nil, meta.EncodingDeltaLengthByteArray, encode.AppendDeltaLengthByteArray(nil, v)), nil, 20, v.TotalLen())
}
