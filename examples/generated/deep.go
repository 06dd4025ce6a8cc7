package generated

// Deep nests nullable values at every level: optional groups in lists in
// optional groups, lists of lists, maps of lists of maps.
type Deep struct {
	ID int64                         `parquet:"id"`
	A  *DeepA                        `parquet:"a"`
	L  [][]*string                   `parquet:"l,optional"`
	M  map[int32][]map[string]*int64 `parquet:"m,optional"`
	S  []DeepB                       `parquet:"s"`
}

// DeepA is an optional group holding an optional list of optional groups.
type DeepA struct {
	B []*DeepB `parquet:"b,optional"`
	N *float64 `parquet:"n"`
}

// DeepB holds an optional scalar and an optional list.
type DeepB struct {
	C *int32   `parquet:"c"`
	D []string `parquet:"d,optional"`
}
