package runtime

import (
	"testing"
)

func TestZZBindLegacy(t *testing.T) {
	for _, c := range [][2]string{
		{`required int64 ts (TIMESTAMP_MILLIS);`, `required int64 ts (TIMESTAMP(NANOS,true));`},
		{`required int64 ts (TIMESTAMP_MICROS);`, `required int64 ts (TIMESTAMP(MICROS,true));`},
		{`required int32 x (UINT_8);`, `required int32 x (INT(8,false));`},
		{`required int32 x (UINT_32);`, `required int64 x;`},
		{`required int32 x (INT_16);`, `required int32 x (INT(16,true));`},
		{`required binary s (UTF8);`, `required binary s (STRING);`},
		{`required int32 d (DECIMAL(9,2));`, `required int64 d (DECIMAL(18,2));`},
		{`required int32 t (TIME_MILLIS);`, `required int64 t (TIME(NANOS,true));`},
		{`required binary e (ENUM);`, `required binary e (STRING);`},
		{`required binary j (JSON);`, `required binary j (STRING);`},
		{`required int32 i;`, `required double i;`},
		{`required int64 ts (TIMESTAMP(MILLIS,false));`, `required int64 ts (TIMESTAMP(NANOS,true));`},
		{`required fixed_len_byte_array(16) u;`, `required fixed_len_byte_array(16) u (UUID);`},
		{`required int64 i (INT(64,true));`, `required int64 i;`},
		{`required int32 i (INT(32,true));`, `required int32 i;`},
		{`required int32 d (DATE);`, `required int64 d (TIMESTAMP(NANOS,true));`},
		{`required binary s (STRING);`, `required binary s;`},
		{`required fixed_len_byte_array(12) iv (INTERVAL);`, `required fixed_len_byte_array(12) iv (INTERVAL);`},
		{`required fixed_len_byte_array(12) iv;`, `required fixed_len_byte_array(12) iv (INTERVAL);`},
		{`required int64 ts (TIMESTAMP(MICROS,true));`, `required int96 ts;`},
	} {
		_, _, err := bindAdapt(mustParse(t, "message m { "+c[0]+" }"), mustParse(t, "message m { "+c[1]+" }"), bindOptions{})
		t.Logf("%-50s -> %-50s %v", c[0], c[1], err)
	}
}
