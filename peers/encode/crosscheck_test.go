package encode

import (
	"bytes"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go/encoding/bytestreamsplit"
	"github.com/parquet-go/parquet-go/encoding/delta"
	"github.com/parquet-go/parquet-go/encoding/plain"
	"github.com/parquet-go/parquet-go/encoding/rle"
	pq "github.com/pqgen/pqgen/runtime/encode"
)

// Cross-checks: what pqgen encodes parquet-go decodes to the same values,
// and the other way round.

func TestCrossDeltaInt(t *testing.T) {
	var e delta.BinaryPackedEncoding
	v64 := int64s()
	v64[5], v64[6] = -1<<63, 1<<63-1
	got, err := e.DecodeInt64(nil, pq.AppendDeltaInt64(nil, v64))
	if err != nil || !slices.Equal(got, v64) {
		t.Fatalf("parquet-go decoding pqgen int64: %v", err)
	}
	enc, _ := e.EncodeInt64(nil, v64)
	back, n, err := pq.DecodeDeltaInt64(nil, enc)
	if err != nil || n != len(enc) || !slices.Equal(back, v64) {
		t.Fatalf("pqgen decoding parquet-go int64: %v", err)
	}
	v32 := int32s()
	v32[7], v32[8] = -1<<31, 1<<31-1
	g32, err := e.DecodeInt32(nil, pq.AppendDeltaInt32(nil, v32))
	if err != nil || !slices.Equal(g32, v32) {
		t.Fatalf("parquet-go decoding pqgen int32: %v", err)
	}
	enc, _ = e.EncodeInt32(nil, v32)
	b32, n, err := pq.DecodeDeltaInt32(nil, enc)
	if err != nil || n != len(enc) || !slices.Equal(b32, v32) {
		t.Fatalf("pqgen decoding parquet-go int32: %v", err)
	}
}

func checkBA(t *testing.T, name string, got pq.ByteArrays, data []byte, offs []uint32) {
	t.Helper()
	if got.Len() != len(offs)-1 {
		t.Fatalf("%s: %d values, want %d", name, got.Len(), len(offs)-1)
	}
	for i := 0; i < got.Len(); i++ {
		if !bytes.Equal(got.At(i), data[offs[i]:offs[i+1]]) {
			t.Fatalf("%s: value %d differs", name, i)
		}
	}
}

func TestCrossByteArrays(t *testing.T) {
	ba := strs()
	type codec interface {
		EncodeByteArray([]byte, []byte, []uint32) ([]byte, error)
		DecodeByteArray([]byte, []byte, []uint32) ([]byte, []uint32, error)
	}
	for _, c := range []struct {
		name  string
		pg    codec
		pqEnc func([]byte, pq.ByteArrays) []byte
		pqDec func(pq.ByteArrays, []byte) (pq.ByteArrays, int, error)
	}{
		{"plain", &plain.Encoding{}, pq.AppendPlainByteArray, pq.DecodePlainByteArray},
		{"dlba", &delta.LengthByteArrayEncoding{}, pq.AppendDeltaLengthByteArray, pq.DecodeDeltaLengthByteArray},
		{"dba", &delta.ByteArrayEncoding{}, pq.AppendDeltaByteArray, pq.DecodeDeltaByteArray},
	} {
		data, offs, err := c.pg.DecodeByteArray(nil, c.pqEnc(nil, ba), nil)
		if err != nil {
			t.Fatalf("%s: parquet-go decoding pqgen: %v", c.name, err)
		}
		checkBA(t, c.name+" pqgen->parquet-go", ba, data, offs)
		enc, err := c.pg.EncodeByteArray(nil, ba.Data, ba.Offsets)
		if err != nil {
			t.Fatal(err)
		}
		got, n, err := c.pqDec(pq.ByteArrays{}, enc)
		if err != nil || n != len(enc) {
			t.Fatalf("%s: pqgen decoding parquet-go: %v (%d of %d bytes)", c.name, err, n, len(enc))
		}
		checkBA(t, c.name+" parquet-go->pqgen", got, ba.Data, ba.Offsets)
	}
}

func TestCrossRLE(t *testing.T) {
	for _, w := range []int{1, 2, 3, 5, 8} {
		lv := levels(w)
		// Runs too, so both run kinds are exercised.
		for i := 100; i < 400; i++ {
			lv[i] = lv[100]
		}
		e := rle.Encoding{BitWidth: w}
		got, err := e.DecodeLevels(nil, pq.AppendRLELevels(nil, lv, w))
		if err != nil || len(got) < len(lv) || !slices.Equal(got[:len(lv)], lv) {
			t.Fatalf("w=%d parquet-go decoding pqgen levels: %v", w, err)
		}
		enc, _ := e.EncodeLevels(nil, lv)
		back, _, err := pq.DecodeRLELevels(nil, enc, w, len(lv))
		if err != nil || !slices.Equal(back, lv) {
			t.Fatalf("w=%d pqgen decoding parquet-go levels: %v", w, err)
		}
	}
	for _, w := range []int{1, 4, 12, 20} {
		idx := indices(w)
		for i := 50; i < 300; i++ {
			idx[i] = idx[50]
		}
		var e rle.DictionaryEncoding
		// parquet-go has no value count here and also returns the zero
		// padding of the last bit-packed group.
		got, err := e.DecodeInt32(nil, pq.AppendDictIndices(nil, idx, w))
		if err != nil || len(got) < len(idx) || !slices.Equal(got[:len(idx)], idx) {
			t.Fatalf("w=%d parquet-go decoding pqgen indices: %v", w, err)
		}
		enc, _ := e.EncodeInt32(nil, idx)
		back, _, err := pq.DecodeDictIndices(nil, enc, len(idx))
		if err != nil || !slices.Equal(back, idx) {
			t.Fatalf("w=%d pqgen decoding parquet-go indices: %v", w, err)
		}
	}
}

func TestCrossByteStreamSplit(t *testing.T) {
	var e bytestreamsplit.Encoding
	d := doubles()
	enc, _ := e.EncodeDouble(nil, d)
	if !bytes.Equal(enc, pq.AppendByteStreamSplitDouble(nil, d)) {
		t.Fatal("double encodings differ")
	}
	f := floats()
	enc, _ = e.EncodeFloat(nil, f)
	if !bytes.Equal(enc, pq.AppendByteStreamSplitFloat(nil, f)) {
		t.Fatal("float encodings differ")
	}
	got, _, err := pq.DecodeByteStreamSplitFloat(nil, enc)
	if err != nil || !slices.Equal(got, f) {
		t.Fatal("float decode", err)
	}
}
