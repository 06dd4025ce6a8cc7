package generated

import (
	"time"

	"github.com/pqgen/pqgen/runtime"
)

// Spans has the Go types of INTERVAL and TIME: runtime.Interval (the
// INTERVAL option implied) and raw bytes, time.Duration and raw counts.
type Spans struct {
	Interval    runtime.Interval            `parquet:"interval"`
	IntervalRaw [12]byte                    `parquet:"interval_raw,interval"`
	OptInterval *runtime.Interval           `parquet:"opt_interval,interval"`
	ByInterval  map[runtime.Interval]string `parquet:"by_interval"`
	Time        time.Duration               `parquet:"time,time(millisecond)"`
	TimeRaw     int32                       `parquet:"time_raw,time(millisecond)"`
	TimeMicros  int64                       `parquet:"time_micros,time(microsecond)"`
}

// SpansIntervalRaw reads the interval column of a Spans file as raw bytes
// (the other columns are left out).
type SpansIntervalRaw struct {
	Interval [12]byte `parquet:"interval,interval"`
}

//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -type Spans,SpansIntervalRaw
