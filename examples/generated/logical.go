package generated

import (
	"time"

	"github.com/pqgen/pqgen/runtime/encode"
)

// Celsius is a named float type.
type Celsius float64

// Level is a named integer type.
type Level int16

// Count is an alias.
type Count = uint64

// Logical has a column of every physical and logical type pqgen maps.
type Logical struct {
	I8            int8          `parquet:"i8"`
	I16           int16         `parquet:"i16"`
	I32           int32         `parquet:"i32"`
	I64           int64         `parquet:"i64"`
	U8            uint8         `parquet:"u8"`
	U16           uint16        `parquet:"u16"`
	U32           uint32        `parquet:"u32"`
	U64           uint64        `parquet:"u64"`
	Int           int           `parquet:"int"`
	Uint          uint          `parquet:"uint"`
	F32           float32       `parquet:"f32"`
	F64           float64       `parquet:"f64,split"`
	Bool          bool          `parquet:"bool"`
	Str           string        `parquet:"str"`
	Enum          string        `parquet:"enum,enum"`
	JSON          string        `parquet:"json,json"`
	BSON          []byte        `parquet:"bson,bson"`
	Bin           []byte        `parquet:"bin,plain"`
	UUID          [16]byte      `parquet:"uuid,uuid"`
	Float16       [2]byte       `parquet:"float16,float16"`
	Interval      [12]byte      `parquet:"interval,interval"`
	Fixed         [5]byte       `parquet:"fixed"`
	Dec32         int32         `parquet:"dec32,decimal(2,9)"`
	Dec64         int64         `parquet:"dec64,decimal(4,18)"`
	DecFixed      [16]byte      `parquet:"dec_fixed,decimal(6,38)"`
	DecBytes      []byte        `parquet:"dec_bytes,decimal(2,40)"`
	TsMillis      time.Time     `parquet:"ts_millis,timestamp(millisecond)"`
	TsMicros      time.Time     `parquet:"ts_micros,timestamp(microsecond)"`
	TsNanos       time.Time     `parquet:"ts_nanos,timestamp(nanosecond)"`
	TsLocal       time.Time     `parquet:"ts_local,timestamp(microsecond,local)"`
	Date          time.Time     `parquet:"date,date"`
	TimeOfDay32   time.Duration `parquet:"time_millis,time(millisecond)"`
	TimeOfDay64   time.Duration `parquet:"time_micros,time(microsecond)"`
	TimeOfDayFine time.Duration `parquet:"time_nanos,time(nanosecond)"`
	Duration      time.Duration `parquet:"duration"`
	Int96         encode.Int96  `parquet:"int96"`
	Geometry      []byte        `parquet:"geometry,geometry"`
	Geography     []byte        `parquet:"geography,geography"`
	Temp          Celsius       `parquet:"temp"`
	Level         Level         `parquet:"level"`
	Count         Count         `parquet:"count"`
	DaysRaw       int32         `parquet:"days_raw,date"`
	MicrosRaw     int64         `parquet:"micros_raw,timestamp(microsecond)"`
	ID            int64         `parquet:"id,id(7)"`
	OptTime       *time.Time    `parquet:"opt_time,timestamp(millisecond)"`
	OptUUID       *[16]byte     `parquet:"opt_uuid,uuid"`
	OptBytes      []byte        `parquet:"opt_bytes,optional"`
	OptLevel      *Level        `parquet:"opt_level"`
	// Zero values are nulls in these two (the optional tag on a value).
	ZeroNullI32 int32     `parquet:"zero_null_i32,optional"`
	ZeroNullTs  time.Time `parquet:"zero_null_ts,optional,timestamp(microsecond)"`
}
