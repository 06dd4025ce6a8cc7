package schema

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

// TestCheckAnnotations: every annotation on each physical type it may
// annotate passes; on another, the error names the column and where the
// text declares it.
func TestCheckAnnotations(t *testing.T) {
	good := `message m {
  required binary s (STRING); required binary e (ENUM); required binary j (JSON); required binary b (BSON);
  required binary geo (GEOMETRY); required binary geog (GEOGRAPHY); required binary u8 (UTF8);
  required fixed_len_byte_array(16) u (UUID); required fixed_len_byte_array(2) h (FLOAT16);
  required fixed_len_byte_array(12) iv (INTERVAL);
  required int32 i8 (INT(8,true)); required int32 u16 (INT(16,false)); required int32 i32 (INT(32,true)); required int64 u64 (INT(64,false));
  required int32 legacy (UINT_8); required int64 legacy64 (INT_64);
  required int32 d (DATE); required int32 tm (TIME(MILLIS,true)); required int64 tu (TIME(MICROS,false)); required int64 tn (TIME(NANOS,true));
  required int64 ts (TIMESTAMP(MILLIS,true)); required int64 tsl (TIMESTAMP_MICROS);
  required int32 d9 (DECIMAL(9,9)); required int64 d18 (DECIMAL(18,0)); required int64 d1 (DECIMAL(1,0));
  required fixed_len_byte_array(1) f2 (DECIMAL(2,1)); required fixed_len_byte_array(16) f38 (DECIMAL(38,10));
  required binary big (DECIMAL(1000,500));
  optional int32 null (UNKNOWN);
  optional group l (LIST) { repeated group list { optional int32 element; } }
  optional group m (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
  optional group mkv (MAP_KEY_VALUE) { repeated group map { required int32 key; } }
  optional group v (VARIANT) { required binary metadata; required binary value; }
}`
	s, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckAnnotations(s); err != nil {
		t.Errorf("valid annotations: %v", err)
	}
	for _, c := range []struct{ decl, msg string }{
		{`required int32 x (STRING);`, `STRING annotates binary, not int32`},
		{`required fixed_len_byte_array(4) x (UTF8);`, `STRING annotates binary, not fixed_len_byte_array(4)`},
		{`required int64 x (ENUM);`, `ENUM annotates binary, not int64`},
		{`required int32 x (JSON);`, `JSON annotates binary, not int32`},
		{`required fixed_len_byte_array(8) x (GEOMETRY);`, `GEOMETRY annotates binary, not fixed_len_byte_array(8)`},
		{`required fixed_len_byte_array(8) x (UUID);`, `UUID annotates fixed_len_byte_array(16), not fixed_len_byte_array(8)`},
		{`required binary x (UUID);`, `UUID annotates fixed_len_byte_array(16), not binary`},
		{`required fixed_len_byte_array(4) x (FLOAT16);`, `FLOAT16 annotates fixed_len_byte_array(2), not fixed_len_byte_array(4)`},
		{`required fixed_len_byte_array(8) x (INTERVAL);`, `INTERVAL annotates fixed_len_byte_array(12), not fixed_len_byte_array(8)`},
		{`required int64 x (INT(32,true));`, `INT(32,true) annotates int32, not int64`},
		{`required int32 x (INT(64,false));`, `INT(64,false) annotates int64, not int32`},
		{`required int64 x (UINT_16);`, `INT(16,false) annotates int32, not int64`},
		{`required binary x (INT(8,true));`, `INT(8,true) annotates int32, not binary`},
		{`required int64 x (DATE);`, `DATE annotates int32, not int64`},
		{`required int64 x (TIME(MILLIS,true));`, `TIME(MILLIS,true) annotates int32, not int64`},
		{`required int32 x (TIME(MICROS,true));`, `TIME(MICROS,true) annotates int64, not int32`},
		{`required int32 x (TIMESTAMP(MILLIS,true));`, `TIMESTAMP(MILLIS,true) annotates int64, not int32`},
		{`required int96 x (TIMESTAMP(NANOS,true));`, `TIMESTAMP(NANOS,true) annotates int64, not int96`},
		{`required int32 x (DECIMAL(10,2));`, `DECIMAL(10,2): int32 holds up to 9 digits, not 10`},
		{`required int64 x (DECIMAL(19,2));`, `DECIMAL(19,2): int64 holds up to 18 digits, not 19`},
		{`required fixed_len_byte_array(1) x (DECIMAL(3,0));`, `DECIMAL(3,0): fixed_len_byte_array(1) holds up to 2 digits, not 3`},
		{`required fixed_len_byte_array(16) x (DECIMAL(39,0));`, `DECIMAL(39,0): fixed_len_byte_array(16) holds up to 38 digits, not 39`},
		{`required int64 x (DECIMAL(5,6));`, `DECIMAL(5,6) needs a precision of at least 1 and a scale from 0 to the precision`},
		{`required binary x (DECIMAL(0,0));`, `DECIMAL(0,0) needs a precision of at least 1`},
		{`required double x (DECIMAL(9,2));`, `DECIMAL(9,2) annotates int32, int64, fixed_len_byte_array or binary, not double`},
		{`required int32 x (LIST);`, `LIST annotates groups, not int32`},
		{`required binary x (MAP);`, `MAP annotates groups, not binary`},
		{`optional group x (STRING) { required int32 a; }`, `STRING annotates primitive types, not groups`},
		{`optional group x (DECIMAL(9,2)) { required int32 a; }`, `DECIMAL(9,2) annotates primitive types, not groups`},
		{`optional group x { optional group y (TIMESTAMP(MILLIS,true)) { required int32 a; } }`, `column "x.y": TIMESTAMP(MILLIS,true) annotates primitive types, not groups`},
	} {
		s, err := Parse("message m {\n  required int32 ok;\n  " + c.decl + "\n}")
		if err != nil {
			t.Fatalf("%s: %v", c.decl, err)
		}
		err = CheckAnnotations(s)
		if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), "3:") || !strings.Contains(err.Error(), ": invalid schema: column ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v\nwant 3:col: ... %s", c.decl, err, c.msg)
		}
		// The same schema from elements names the column, without a
		// position.
		s2, err := FromElements(s.Elements())
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckAnnotations(s2); err == nil || strings.HasPrefix(err.Error(), "3:") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s from elements: %v", c.decl, err)
		}
	}
}

// TestDecimalDigits: the digits of a FIXED_LEN_BYTE_ARRAY, against the
// specification's worked figures and the exact bound 10^p <= 2^(8n-1)-1.
func TestDecimalDigits(t *testing.T) {
	for n, want := range map[int]int32{0: 0, 1: 2, 2: 4, 3: 6, 4: 9, 5: 11, 6: 14, 7: 16, 8: 18, 9: 21, 10: 23, 11: 26, 12: 28, 13: 31, 14: 33, 15: 35, 16: 38, 32: 76} {
		if got := DecimalDigits(n); got != want {
			t.Errorf("DecimalDigits(%d) = %d, want %d", n, got, want)
		}
	}
	for n := 1; n <= 600; n++ {
		p := DecimalDigits(n)
		max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)), big.NewInt(1))
		pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		next := new(big.Int).Mul(pow, big.NewInt(10))
		// Every p-digit value (below 10^p) fits; some of p+1 digits do not.
		if pow.Cmp(max) > 0 || next.Cmp(max) <= 0 {
			t.Fatalf("DecimalDigits(%d) = %d", n, p)
		}
	}
	if got, want := DecimalDigits(5000), int32(math.Floor(39999*math.Log10(2))); got != want {
		t.Errorf("DecimalDigits(5000) = %d, want %d", got, want)
	}
}
