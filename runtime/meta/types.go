// Opt and the methods of the metadata types. The types themselves are
// generated from internal/metagen's table (types_gen.go), with their codec.

package meta

// Opt is an optional scalar or string field: Set reports whether the field
// was present, Val holds its value when it was.
type Opt[T any] struct {
	Val T
	Set bool
}

// Some returns a present Opt holding v.
func Some[T any](v T) Opt[T] { return Opt[T]{Val: v, Set: true} }

// Get returns the value and whether it is present.
func (o Opt[T]) Get() (T, bool) { return o.Val, o.Set }

// Or returns the value when present and def otherwise.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.Val
	}
	return def
}

// Compressed reports whether the data section of the page is compressed
// (is_compressed defaults to true).
func (h *DataPageHeaderV2) Compressed() bool { return h.IsCompressed.Or(true) }
