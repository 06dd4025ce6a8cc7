package bench

import "time"

// Flat is the flat row type: an id, a string of 1,000 distinct values, a
// double, an int32 that is null half of the time, an int32 and a time.
type Flat struct {
	ID    int64     `parquet:"id"`
	Name  string    `parquet:"name,dict"`
	Value float64   `parquet:"value"`
	Opt   *int32    `parquet:"opt"`
	Count int32     `parquet:"count"`
	At    time.Time `parquet:"at,timestamp(microsecond)"`
}

// Contact is the nested row type: an optional struct, a list of strings, a
// list of structs and a map.
type Contact struct {
	ID      int64            `parquet:"id"`
	Name    string           `parquet:"name"`
	Address *Address         `parquet:"address"`
	Emails  []string         `parquet:"emails,list"`
	Phones  []Phone          `parquet:"phones,list"`
	Attrs   map[string]int64 `parquet:"attrs"`
}

// Address is Contact's optional group.
type Address struct {
	Street string `parquet:"street"`
	City   string `parquet:"city,dict"`
	Zip    int32  `parquet:"zip"`
}

// Phone is an element of Contact's list of structs.
type Phone struct {
	Kind   string `parquet:"kind,dict"`
	Number string `parquet:"number"`
}
