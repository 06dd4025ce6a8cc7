package evolution

import (
	"time"

	"github.com/pqgen/pqgen/runtime/encode"
)

// FlatV1 is yesterday's flat row: one column per widening the rules
// allow, plus a field today's type dropped and one it renamed.
type FlatV1 struct {
	I8          int8          `parquet:"i8"`
	I16         int16         `parquet:"i16"`
	I32         int32         `parquet:"i32"`
	I8Wide      int8          `parquet:"i8_wide"`
	U8          uint8         `parquet:"u8"`
	U16         uint16        `parquet:"u16"`
	U32         uint32        `parquet:"u32"`
	U8Wide      uint8         `parquet:"u8_wide"`
	U32Wide     uint32        `parquet:"u32_wide"`
	F32         float32       `parquet:"f32"`
	F16         [2]byte       `parquet:"f16,float16"`
	F16Wide     [2]byte       `parquet:"f16_wide,float16"`
	Date        time.Time     `parquet:"date,date"`
	DateNano    time.Time     `parquet:"date_nano,date"`
	TsMilli     time.Time     `parquet:"ts_milli,timestamp(millisecond)"`
	TsMicro     time.Time     `parquet:"ts_micro,timestamp(microsecond)"`
	TmMilliUnit time.Duration `parquet:"tm_milli,time(millisecond)"`
	TmMicroUnit time.Duration `parquet:"tm_micro,time(microsecond)"`
	Dec32       int32         `parquet:"dec32,decimal(2,9)"`
	Dec64       int64         `parquet:"dec64,decimal(2,18)"`
	DecFix      [8]byte       `parquet:"dec_fix,decimal(3,15)"`
	DecBytes    []byte        `parquet:"dec_bytes,decimal(2,20)"`
	Str         string        `parquet:"str"`
	Enum        string        `parquet:"enum,enum"`
	JSON        string        `parquet:"json,json"`
	Raw         []byte        `parquet:"raw"`
	Req         int64         `parquet:"req"`
	Dropped     string        `parquet:"dropped"`
	OldName     int32         `parquet:"old_name,id(5)"`
	IntF        int32         `parquet:"int_f"`
	U16F        uint16        `parquet:"u16_f"`
}

// FlatV2 is today's flat row: every column of FlatV1 widened, Req made
// nullable, Dropped gone, OldName renamed (same field id), Added new.
type FlatV2 struct {
	I8          int16         `parquet:"i8"`
	I16         int32         `parquet:"i16"`
	I32         int64         `parquet:"i32"`
	I8Wide      int64         `parquet:"i8_wide"`
	U8          int16         `parquet:"u8"`
	U16         int32         `parquet:"u16"`
	U32         int64         `parquet:"u32"`
	U8Wide      uint32        `parquet:"u8_wide"`
	U32Wide     uint64        `parquet:"u32_wide"`
	F32         float64       `parquet:"f32"`
	F16         float32       `parquet:"f16"`
	F16Wide     float64       `parquet:"f16_wide"`
	Date        time.Time     `parquet:"date,timestamp(millisecond)"`
	DateNano    time.Time     `parquet:"date_nano"`
	TsMilli     time.Time     `parquet:"ts_milli,timestamp(microsecond)"`
	TsMicro     time.Time     `parquet:"ts_micro"`
	TmMilliUnit time.Duration `parquet:"tm_milli,time(microsecond)"`
	TmMicroUnit time.Duration `parquet:"tm_micro,time(nanosecond)"`
	Dec32       int64         `parquet:"dec32,decimal(4,18)"`
	Dec64       [16]byte      `parquet:"dec64,decimal(6,38)"`
	DecFix      []byte        `parquet:"dec_fix,decimal(5,20)"`
	DecBytes    [16]byte      `parquet:"dec_bytes,decimal(2,30)"`
	Str         []byte        `parquet:"str"`
	Enum        string        `parquet:"enum,json"`
	JSON        string        `parquet:"json"`
	Raw         string        `parquet:"raw,enum"`
	Req         *int64        `parquet:"req"`
	NewName     int32         `parquet:"new_name,id(5)"`
	Added       *int32        `parquet:"added"`
	IntF        float64       `parquet:"int_f"`
	U16F        float32       `parquet:"u16_f"`
}

// ItemV1 is an element of NestedV1's lists and a map value.
type ItemV1 struct {
	A int32     `parquet:"a"`
	B float32   `parquet:"b"`
	T time.Time `parquet:"t,timestamp(millisecond)"`
	X string    `parquet:"x"`
}

// ItemV2 is ItemV1 widened, X dropped and C added.
type ItemV2 struct {
	A int64     `parquet:"a"`
	B float64   `parquet:"b"`
	T time.Time `parquet:"t,timestamp(microsecond)"`
	C *string   `parquet:"c"`
}

// InnerV1 is a nested group of NestedV1.
type InnerV1 struct {
	D  int16  `parquet:"d"`
	Xs []int8 `parquet:"xs"`
}

// InnerV2 is InnerV1 widened, its list elements made nullable.
type InnerV2 struct {
	D  *int32   `parquet:"d"`
	Xs []*int64 `parquet:"xs"`
}

// NestedV1 is yesterday's nested row.
type NestedV1 struct {
	ID    int32            `parquet:"id"`
	Items []ItemV1         `parquet:"items"`
	Opt   *InnerV1         `parquet:"opt"`
	Inner InnerV1          `parquet:"inner"`
	M     map[int16]int32  `parquet:"m"`
	MS    map[string]int32 `parquet:"ms"`
}

// NestedV2 is today's nested row: the same fields widened inside
// structs, list elements, map keys and values; Inner made nullable.
type NestedV2 struct {
	ID    int64             `parquet:"id"`
	Items []ItemV2          `parquet:"items"`
	Opt   *InnerV2          `parquet:"opt"`
	Inner *InnerV2          `parquet:"inner"`
	M     map[int64]int64   `parquet:"m"`
	MS    map[string]*int64 `parquet:"ms"`
}

// OptV1 has nullable columns that OptV2 requires.
type OptV1 struct {
	A *int32   `parquet:"a"`
	S *string  `parquet:"s"`
	L []*int32 `parquet:"l"`
}

// OptV2 requires OptV1's nullable columns (read with
// runtime.WithOptionalAsRequired).
type OptV2 struct {
	A int64   `parquet:"a"`
	S string  `parquet:"s"`
	L []int32 `parquet:"l"`
}

// Narrow16 reads FlatV1's i32 (int32) as an int16: refused.
type Narrow16 struct {
	I32 int16 `parquet:"i32"`
}

// Narrow32 reads NestedV2's id (int64) as an int32: refused.
type Narrow32 struct {
	ID int32 `parquet:"id"`
}

// NarrowF reads FlatV2's f32 (double) as a float32: refused.
type NarrowF struct {
	F32 float32 `parquet:"f32"`
}

// NarrowUnit reads FlatV1's ts_micro in milliseconds: refused.
type NarrowUnit struct {
	TsMicro time.Time `parquet:"ts_micro,timestamp(millisecond)"`
}

// NarrowScale reads FlatV1's dec64 (DECIMAL(18,2)) with scale 1: refused.
type NarrowScale struct {
	Dec64 int64 `parquet:"dec64,decimal(1,18)"`
}

// NarrowStr reads FlatV1's str (a string) as an integer: refused.
type NarrowStr struct {
	Str int64 `parquet:"str"`
}

// NarrowSign reads FlatV1's i8 (signed) as a uint64: refused.
type NarrowSign struct {
	I8 uint64 `parquet:"i8"`
}

// NarrowElem reads NestedV1's items.a (int32 inside a list of structs)
// as an int16: refused.
type NarrowElem struct {
	Items []struct {
		A int16 `parquet:"a"`
	} `parquet:"items"`
}

// BenchNarrow is the flat row of the conversion benchmark as written:
// 32-bit integers and floats, millisecond timestamps.
type BenchNarrow struct {
	A int32     `parquet:"a"`
	B int32     `parquet:"b"`
	C int32     `parquet:"c"`
	D int32     `parquet:"d"`
	F float32   `parquet:"f"`
	G float32   `parquet:"g"`
	T time.Time `parquet:"t,timestamp(millisecond)"`
}

// BenchWide is BenchNarrow widened: every column is converted when a
// BenchNarrow file is read into it.
type BenchWide struct {
	A int64     `parquet:"a"`
	B int64     `parquet:"b"`
	C int64     `parquet:"c"`
	D int64     `parquet:"d"`
	F float64   `parquet:"f"`
	G float64   `parquet:"g"`
	T time.Time `parquet:"t,timestamp(microsecond)"`
}

// Slim reads two columns of a file that has 50 more.
type Slim struct {
	ID   int64  `parquet:"id"`
	Name string `parquet:"name"`
}

// DefaultsV2 is Slim with required fields added, each with the default
// value files without its column read as.
type DefaultsV2 struct {
	ID     int64   `parquet:"id"`
	Name   string  `parquet:"name"`
	Region string  `parquet:"region,default(eu-west, 1)"`
	Level  int16   `parquet:"level,default(-3)"`
	Mask   uint32  `parquet:"mask,default(0xffffffff)"`
	Ratio  float64 `parquet:"ratio,default(0.5)"`
	On     bool    `parquet:"on,default(true)"`
	Plain  int32   `parquet:"plain,optional"`
}

// MissingV2 adds a required field without a default: files without its
// column do not open.
type MissingV2 struct {
	ID     int64  `parquet:"id"`
	Region string `parquet:"region"`
}

// SparkV1 is a row as Spark, Impala and Hive write timestamps: in the
// legacy INT96 type.
type SparkV1 struct {
	ID  int64         `parquet:"id"`
	At  encode.Int96  `parquet:"at"`
	Opt *encode.Int96 `parquet:"opt"`
}

// SparkV2 reads SparkV1's files into time.Time fields (TIMESTAMP(NANOS),
// INT96's own unit).
type SparkV2 struct {
	ID  int64      `parquet:"id"`
	At  time.Time  `parquet:"at"`
	Opt *time.Time `parquet:"opt"`
}

// SparkMicros reads them in microseconds, Spark's own precision, which
// reaches past 2262: a coarser unit than INT96's, read with
// runtime.WithCoarserTimeUnits.
type SparkMicros struct {
	ID  int64      `parquet:"id"`
	At  time.Time  `parquet:"at,timestamp(microsecond)"`
	Opt *time.Time `parquet:"opt,timestamp(microsecond)"`
}
