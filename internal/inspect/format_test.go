package inspect

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

func le32(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func le64(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

func leaf(t meta.Type, length int32, l meta.LogicalType) *schema.Node {
	return &schema.Node{Type: t, TypeLength: length, Logical: l}
}

func TestFormatValue(t *testing.T) {
	dec := func(p, s int32) meta.LogicalType {
		return meta.LogicalType{Kind: meta.LogicalDecimal, Decimal: meta.DecimalType{Precision: p, Scale: s}}
	}
	ts := func(u meta.TimeUnit, utc bool) meta.LogicalType {
		return meta.LogicalType{Kind: meta.LogicalTimestamp, Time: meta.TimeType{Unit: u, IsAdjustedToUTC: utc}}
	}
	tm := func(u meta.TimeUnit) meta.LogicalType {
		return meta.LogicalType{Kind: meta.LogicalTime, Time: meta.TimeType{Unit: u, IsAdjustedToUTC: true}}
	}
	uint32Type := meta.LogicalType{Kind: meta.LogicalInteger, Integer: meta.IntType{BitWidth: 32}}
	// INT96: 2009-01-01 00:01:00 = Julian day 2454833, 60 s of nanoseconds.
	int96 := append(le64(60e9), le32(2454833)...)
	interval := &schema.Node{Type: meta.FixedLenByteArray, TypeLength: 12, Converted: meta.Some(meta.ConvertedInterval)}
	cases := []struct {
		n    *schema.Node
		b    []byte
		want string
	}{
		{leaf(meta.Boolean, 0, meta.LogicalType{}), []byte{1}, "true"},
		{leaf(meta.Int32, 0, meta.LogicalType{}), le32(-7), "-7"},
		{leaf(meta.Int32, 0, uint32Type), le32(-1), "4294967295"},
		{leaf(meta.Int32, 0, meta.LogicalType{Kind: meta.LogicalDate}), le32(19000), "2022-01-08"},
		{leaf(meta.Int32, 0, meta.LogicalType{Kind: meta.LogicalDate}), le32(-1), "1969-12-31"},
		{leaf(meta.Int32, 0, dec(9, 2)), le32(-12345), "-123.45"},
		{leaf(meta.Int32, 0, dec(9, 4)), le32(5), "0.0005"},
		{leaf(meta.Int64, 0, dec(18, 0)), le64(math.MaxInt64), "9223372036854775807"},
		{leaf(meta.Int32, 0, tm(meta.Millis)), le32(3723004), "01:02:03.004"},
		{leaf(meta.Int64, 0, tm(meta.Nanos)), le64(1), "00:00:00.000000001"},
		{leaf(meta.Int64, 0, ts(meta.Micros, true)), le64(1_700_000_000_123_456), "2023-11-14T22:13:20.123456Z"},
		{leaf(meta.Int64, 0, ts(meta.Millis, false)), le64(172800000), "1970-01-03T00:00:00"},
		{leaf(meta.Int64, 0, ts(meta.Nanos, true)), le64(-1), "1969-12-31T23:59:59.999999999Z"},
		{leaf(meta.Int96, 0, meta.LogicalType{}), int96, "2009-01-01T00:01:00Z"},
		{leaf(meta.Float, 0, meta.LogicalType{}), binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)), "1.5"},
		{leaf(meta.Double, 0, meta.LogicalType{}), binary.LittleEndian.AppendUint64(nil, math.Float64bits(-0.1)), "-0.1"},
		{leaf(meta.ByteArray, 0, meta.LogicalType{Kind: meta.LogicalString}), []byte("héllo"), `"héllo"`},
		{leaf(meta.ByteArray, 0, meta.LogicalType{Kind: meta.LogicalString}), []byte{0xff}, "0xff"},
		{leaf(meta.ByteArray, 0, meta.LogicalType{}), []byte{1, 2}, "0x0102"},
		{leaf(meta.ByteArray, 0, dec(20, 2)), []byte{0xff, 0x85}, "-1.23"},
		{leaf(meta.FixedLenByteArray, 4, dec(9, 3)), []byte{0, 0, 0x30, 0x39}, "12.345"},
		{leaf(meta.FixedLenByteArray, 16, meta.LogicalType{Kind: meta.LogicalUUID}),
			[]byte{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff},
			"00112233-4455-6677-8899-aabbccddeeff"},
		{leaf(meta.FixedLenByteArray, 2, meta.LogicalType{Kind: meta.LogicalFloat16}), []byte{0x00, 0x3c}, "1"},
		{leaf(meta.FixedLenByteArray, 2, meta.LogicalType{Kind: meta.LogicalFloat16}), []byte{0x00, 0xc0}, "-2"},
		{leaf(meta.FixedLenByteArray, 2, meta.LogicalType{Kind: meta.LogicalFloat16}), []byte{0x01, 0x00}, "5.9604645e-08"},
		{leaf(meta.FixedLenByteArray, 2, meta.LogicalType{Kind: meta.LogicalFloat16}), []byte{0x00, 0x7e}, "NaN"},
		{leaf(meta.FixedLenByteArray, 2, meta.LogicalType{Kind: meta.LogicalFloat16}), []byte{0x00, 0x80}, "-0"},
		{interval, append(append(le32(1), le32(2)...), le32(3)...), "1 months 2 days 3 ms"},
		// Sizes that do not fit the type are reported, not trusted.
		{leaf(meta.Int32, 0, meta.LogicalType{}), []byte{1, 2}, "<2 bytes, invalid for int32>"},
		{leaf(meta.FixedLenByteArray, 16, meta.LogicalType{Kind: meta.LogicalUUID}), []byte{1}, "<1 bytes, invalid for fixed_len_byte_array(16)>"},
	}
	for _, c := range cases {
		if got := FormatValue(c.n, c.b); got != c.want {
			t.Errorf("FormatValue(%s %s, % x) = %q, want %q", schema.TypeName(c.n.Type, c.n.TypeLength), schema.LogicalString(c.n.Logical), c.b, got, c.want)
		}
	}
	long := make([]byte, 100)
	if got := FormatValue(leaf(meta.ByteArray, 0, meta.LogicalType{}), long); len(got) != 2+2*maxShown+len("… (100 bytes)") {
		t.Errorf("long binary shown as %q", got)
	}
}

func TestFormatLongString(t *testing.T) {
	s := make([]byte, 0, 300)
	for i := 0; i < 150; i++ {
		s = append(s, "é"...)
	}
	got := FormatValue(leaf(meta.ByteArray, 0, meta.LogicalType{Kind: meta.LogicalString}), s)
	want := `"` + string(s[:200]) + `"… (300 bytes)`
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
