package generated

//go:generate go run github.com/pqgen/pqgen/cmd/pqgen -type Blobs

// Blobs holds []byte fields in each position, for how empty and null
// values read back: a required one (nil and empty are one value, read as
// nil), one tagged optional (nil is null, empty a present empty value),
// a pointer to one, and []byte list elements and map values.
type Blobs struct {
	Req  []byte            `parquet:"req"`
	Opt  []byte            `parquet:"opt,optional"`
	Ptr  *[]byte           `parquet:"ptr"`
	List [][]byte          `parquet:"list"`
	Map  map[string][]byte `parquet:"map"`
}
