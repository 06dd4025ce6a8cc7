package generated

import "time"

// Event is a flat analytics event.
type Event struct {
	ID       int64     `parquet:"id,delta"`
	At       time.Time `parquet:"at,timestamp(microsecond)"`
	Kind     Kind      `parquet:"kind,dict"`
	User     string    `parquet:"user"`
	Session  [16]byte  `parquet:"session,uuid"`
	Latency  time.Duration
	Score    float64 `parquet:"score"`
	Success  bool    `parquet:"success"`
	Referrer *string `parquet:"referrer"`
	Retries  *int32  `parquet:"retries"`
	Country  string  `parquet:"country,optional"`
	Payload  []byte  `parquet:"payload,zstd"`
	Internal string  `parquet:"-"`
}

// Kind is an event kind.
type Kind string
