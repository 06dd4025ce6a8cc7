package gen

import (
	"github.com/dave/jennifer/jen"

	"github.com/pqgen/pqgen/runtime/meta"
)

// checkRows is how many rows generated writers shred between EndRows
// calls, or between checks of the batch's bytes, for schemas of fewer
// than wideLeaves leaf columns; each doubling of the columns beyond
// doubles it, up to maxBatchRows (checkFor). Each EndRows visits every
// column's state (its page buffers, dictionary, statistics) once: with
// hundreds of columns that state is out of cache by the next visit, and
// larger batches pay that miss over more values.
//
// Batches are at least minBatchRows (batchFor): for narrow schemas the
// per-call cost of EndRows (and, with WithParallelism, the hand-over of
// each batch to the workers) weighs on batches of 256 rows (a 6-column
// write of 200,000 rows: 3% less time sequentially, 9-10% with
// WithParallelism(2), at 1,024 rows). A batch of such a schema that holds
// byte arrays ends early, at a multiple of checkRows rows, once their
// bytes reach maxBatchMiB MiB, so that rows of large values do not keep
// more in memory than 256 rows did.
const (
	checkRows    = 256
	wideLeaves   = 64
	maxBatchRows = 2048
	minBatchRows = 1024
	maxBatchMiB  = 4
)

// checkFor returns the rows between checks of the batch's bytes of a
// schema of leaves leaf columns.
func checkFor(leaves int) int {
	b := checkRows
	for l := leaves; l >= wideLeaves && b < maxBatchRows; l /= 2 {
		b *= 2
	}
	return b
}

// batchFor returns the batch of a schema of leaves leaf columns.
func batchFor(leaves int) int { return max(minBatchRows, checkFor(leaves)) }

// writePlan is the writer of one row type, decided before anything is
// printed: the fields of TWriter, the table its constructor opens, the
// strategy of each top-level field's shredding, the options from struct
// tags. The templates (gen/templates: writer.tmpl, schema.tmpl, files.tmpl)
// and the emitters of emit_writer.go only print it.
type writePlan struct {
	// Type is the row type's Go name; Names its generated identifiers.
	Type  string
	Names *Names
	// Row is the row type in code (Order, or pkg.Order).
	Row *TypeRef
	// Batch is how many rows the writer shreds between EndRows calls.
	Batch int
	// Check is the rows between checks of the batch's bytes, a divisor of
	// Batch below it, or 0 (none): for a schema with byte-array leaves
	// whose batch is above checkFor's; BatchMiB the MiB of byte-array
	// values that end a batch there. ByteBuffers are the byte-array buffer
	// fields, whose values' bytes are counted.
	Check       int
	BatchMiB    int
	ByteBuffers []string
	// Buffers are TWriter's column buffer fields, one per leaf outside
	// Variants, in schema order.
	Buffers []writeBuffer
	// Variants are TWriter's Variant writers, one per Variant field.
	Variants []writeVariant
	// Maps are TWriter's map entry scratch slices, one per map outside
	// Variants, depth first.
	Maps []writeMap
	// Fields are the top-level fields, each shredded by its own loop over
	// the rows, in field order.
	Fields []writeField
	// Options are the writer options of the struct tags, in column order;
	// HasOptions tells whether a TOptions variable holds them (struct tags
	// set column options), even when they turn into no option.
	Options    []tagOption
	HasOptions bool
	// ShredFails is whether shredding a field can fail, so that its
	// method returns an error: a Variant the group cannot store, a
	// runtime.Decimal that does not fit, a value valueGuard refuses.
	// (shred itself returns the error of runtime.ShredParts.Run whatever
	// it is.)
	ShredFails bool
}

// writeBuffer is one column buffer field of TWriter.
type writeBuffer struct {
	Field  string // the field and the shredder's local copy ("colLinesSKU")
	Kind   string // the runtime buffer type ("ByteArrayBuffer")
	Column string // the column index constant ("pqgenOrderColLinesSKU")
	Path   string // the leaf's dotted path, the field's comment
}

// writeVariant is one Variant writer field of TWriter.
type writeVariant struct {
	Field   string // the writer field ("variantPayload")
	GoField string // the row's field holding the Variant ("Payload")
	Path    string // the VARIANT group's dotted path
}

// writeMap is one map entry scratch slice of TWriter: MapEntries lists a
// map's entries there, in key order, for every row.
type writeMap struct {
	Field     string   // the writer field ("entriesAttrs")
	Key, Elem *TypeRef // the map's key and element types
	Path      string   // the map's dotted path, the field's comment
	Value     *Value   // the map, which the shredder sorts the entries of
}

// shredStrategy is how a top-level field is shredded.
type shredStrategy int

const (
	// shredLeaves appends the field's levels and values to its leaves'
	// buffers straight from the struct field (jennifer code per value).
	shredLeaves shredStrategy = iota
	// shredVariant hands the field to its Variant writer's Append.
	shredVariant
	// shredFill is for a scalar field outside groups stored as one plain
	// element of its leaf's Values (plainValue), required or nullable: the
	// leaf's values (and definition levels) grow by the batch once and the
	// loop assigns each row's, instead of appending through the buffer
	// one value at a time: 200-column rows are written 2-6% faster.
	shredFill
)

// writeField is one top-level field of the row type in the shredder.
type writeField struct {
	Name     string        // the Go field (path "Audit.CreatedBy" when promoted)
	Column   string        // the column or group name, the block's comment
	Strategy shredStrategy // how it is shredded
	// Buffers are the buffer fields the field's loop appends to, copied to
	// locals of the same name first (shredLeaves).
	Buffers []string
	// Variant is the Variant writer field (shredVariant).
	Variant string
	// Value is the field's value, which the shredder walks.
	Value *Value
	// Method is the writer's method shredding the field ("shredAttrs"),
	// one part of shred (runtime.ShredParts).
	Method string
	// Maps are the entry scratch slices of the maps within the field,
	// which its method clears once the rows are shredded.
	Maps []string
	// Mixed is, for a nullable field shredded by shredFill, the writer
	// field telling whether the last batch's rows with and without a
	// value were mixed (runtime.Mixed), so that the next batch's are
	// found without a branch per row (shredFillCode).
	Mixed string
}

// tagOptionKind is the writer option a struct tag turns into.
type tagOptionKind int

const (
	optCompression tagOptionKind = iota // runtime.WithColumnCompression(path, pqmeta.Name, default level)
	optDictionary                       // runtime.WithColumnDictionary(path, On)
	optEncoding                         // runtime.WithColumnEncoding(path, pqmeta.Name)
	optBloom                            // runtime.WithColumnBloomFilter(path, NDV, 0)
)

// tagOption is one writer option from a struct tag.
type tagOption struct {
	Kind   tagOptionKind
	Column string // the leaf's dotted path
	Name   string // the codec or encoding constant of runtime/meta
	On     bool   // the dictionary setting
	NDV    int    // the Bloom filter's expected distinct values
}

// planWrite decides the writer of t.
func planWrite(t *Type) *writePlan {
	p := &writePlan{
		Type:       t.Name,
		Names:      &t.Names,
		Row:        t.Root.Go,
		Batch:      batchFor(len(t.Schema.Leaves)),
		HasOptions: len(t.Columns) > 0,
		// Variants, runtime.Decimal values and the values of valueGuard
		// can fail to shred.
		ShredFails: len(variantFields(t)) > 0 || hasConv(t, ConvDecimal) || hasGuard(t),
	}
	vcols := variantColumns(t)
	for _, l := range t.Schema.Leaves {
		if vcols[l.Column] {
			continue
		}
		b := writeBuffer{
			Field:  t.Names.col(l.Column),
			Kind:   physName(l.Type) + "Buffer",
			Column: t.Names.colIndex(l.Column),
			Path:   l.PathString(),
		}
		p.Buffers = append(p.Buffers, b)
		if l.Type == meta.ByteArray {
			p.ByteBuffers = append(p.ByteBuffers, b.Field)
		}
	}
	if c := checkFor(len(t.Schema.Leaves)); c < p.Batch && len(p.ByteBuffers) > 0 {
		p.Check, p.BatchMiB = c, maxBatchMiB
	}
	for _, fl := range variantFields(t) {
		p.Variants = append(p.Variants, writeVariant{Field: t.Names.variantVar(fl.Value), GoField: fl.Name, Path: fl.Value.Node.PathString()})
	}
	for _, fl := range t.Root.Struct.Fields {
		wf := writeField{Name: fl.Name, Column: fl.Value.Node.Name, Value: fl.Value, Method: t.Names.shredVar(fl.Value)}
		if fl.Value.Kind == KindVariant {
			wf.Strategy = shredVariant
			wf.Variant = t.Names.variantVar(fl.Value)
		} else {
			if fillable(fl.Value) {
				wf.Strategy = shredFill
				if fl.Value.Null != NotNull {
					wf.Mixed = t.Names.mixedVar(fl.Value)
				}
			}
			for _, c := range leafIndexes(fl.Value.Node) {
				wf.Buffers = append(wf.Buffers, t.Names.col(c))
			}
			// The maps the shredder sorts, outside Variants, depth first:
			// the writer's entry slices, which the field's method clears.
			fl.Value.walk(func(v *Value) {
				if v.Kind == KindMap {
					m := writeMap{Field: t.Names.mapVar(v), Key: v.Key.Go, Elem: v.Elem.Go, Path: v.Node.PathString(), Value: v}
					p.Maps = append(p.Maps, m)
					wf.Maps = append(wf.Maps, m.Field)
				}
			})
		}
		p.Fields = append(p.Fields, wf)
	}
	p.Options = tagOptions(t)
	return p
}

// fillable reports whether top-level field value v is shredded by
// shredFill: a scalar leaf of the root (no repetition, at most one
// definition level, its own), null as nil or zero if at all, whose value
// is a plain element of the leaf's Values.
func fillable(v *Value) bool {
	n := v.Node
	if v.Kind != KindScalar || n.MaxRep != 0 || n.MaxDef > 1 || (v.Null == NotNull) != (n.MaxDef == 0) {
		return false
	}
	if v.Null != NotNull && v.Null != NullPointer && v.Null != NullZero {
		return false
	}
	_, ok := plainValue(v, id("x"))
	return ok
}

// tagOptions lists the writer options of t's struct tags, per column in
// schema order: compression, dictionary, encoding (an explicit encoding
// without a dictionary setting is the column's encoding, not a fallback
// after the dictionary: the dictionary is turned off), Bloom filter.
func tagOptions(t *Type) []tagOption {
	var out []tagOption
	for _, l := range t.Schema.Leaves {
		c := t.Columns[l.Column]
		if c == nil {
			continue
		}
		path := c.Path
		if c.Compression != "" {
			out = append(out, tagOption{Kind: optCompression, Column: path, Name: codecNames[c.Compression]})
		}
		switch c.Dict {
		case "on":
			out = append(out, tagOption{Kind: optDictionary, Column: path, On: true})
		case "off":
			out = append(out, tagOption{Kind: optDictionary, Column: path})
		}
		if c.Encoding != "" {
			enc, _ := encodingFor(c.Encoding, l.Type)
			if c.Dict == "" {
				out = append(out, tagOption{Kind: optDictionary, Column: path})
			}
			out = append(out, tagOption{Kind: optEncoding, Column: path, Name: enc})
		}
		if c.BloomNDV > 0 {
			out = append(out, tagOption{Kind: optBloom, Column: path, NDV: int(c.BloomNDV)})
		}
	}
	return out
}

var codecNames = map[string]string{
	"snappy": "Snappy", "gzip": "Gzip", "zstd": "Zstd", "brotli": "Brotli", "lz4": "LZ4", "lz4raw": "LZ4Raw", "uncompressed": "Uncompressed",
}

// code is the option in generated code.
func (o tagOption) code() jen.Code {
	rt := func(name string) *jen.Statement { return jen.Qual(pathRuntime, name) }
	path := jen.Lit(o.Column)
	switch o.Kind {
	case optCompression:
		return rt("WithColumnCompression").Call(path, jen.Qual(pathMeta, o.Name), jen.Qual(pathCompress, "DefaultLevel"))
	case optDictionary:
		return rt("WithColumnDictionary").Call(path, jen.Lit(o.On))
	case optEncoding:
		return rt("WithColumnEncoding").Call(path, jen.Qual(pathMeta, o.Name))
	}
	return rt("WithColumnBloomFilter").Call(path, jen.Lit(o.NDV), jen.Lit(0))
}

// hasGuard reports whether some scalar of t converts under a valueGuard.
func hasGuard(t *Type) bool {
	found := false
	t.Root.walk(func(v *Value) { found = found || v.Kind == KindScalar && valueGuard(v, id("x"), false) != nil })
	return found
}

// hasConv reports whether a scalar of t converts with c.
func hasConv(t *Type, c Conv) bool {
	found := false
	t.Root.walk(func(v *Value) { found = found || v.Kind == KindScalar && v.Conv == c })
	return found
}
