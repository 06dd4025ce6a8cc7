// Package flat is a golden-test input: a flat struct of every scalar kind.
//
//go:generate pqgen -type Event
package flat

import "time"

// Event is a flat row.
type Event struct {
	ID       int64     `parquet:"id"`
	Name     string    `parquet:"name,dict"`
	Small    int8      `parquet:"small"`
	U16      uint16    `parquet:"u16"`
	U64      uint64    `parquet:"u64"`
	Score    float64   `parquet:"score"`
	Ratio    float32   `parquet:"ratio"`
	OK       bool      `parquet:"ok"`
	Payload  []byte    `parquet:"payload"`
	Key      [16]byte  `parquet:"key,uuid"`
	At       time.Time `parquet:"at,timestamp(microsecond)"`
	Day      time.Time `parquet:"day,date"`
	Took     time.Duration
	Note     *string `parquet:"note"`
	Count    *int32  `parquet:"count"`
	Opt      int64   `parquet:"opt,optional"`
	Hidden   string  `parquet:"-"`
	Lvl      Level   `parquet:"lvl"`
	Lvls     []Level `parquet:"lvls"`
	Blob     Blob    `parquet:"blob"`
	internal int
}

// Level is a named integer: its underlying type is guarded too.
type Level int16

// Blob is a named byte slice.
type Blob []byte
