package inspect

import (
	"errors"
	"fmt"
	"io"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// scanBatch is the number of rows read at once while scanning.
const scanBatch = 4096

// Scan reads every row of every column of f (the Variants of VARIANT
// groups rebuilt from their leaves) and discards them, so that the
// deviations only the pages show are recorded in f.Deviations. The first
// column that cannot be read stops it with that error.
func Scan(f *runtime.File) error {
	fr, err := runtime.NewFileReaderOf(f)
	if err != nil {
		return err
	}
	s := f.Schema
	var variants []*schema.Node
	var walk func(n *schema.Node)
	walk = func(n *schema.Node) {
		if n.Group && n.Parent != nil && n.Logical.Kind == meta.LogicalVariant {
			variants = append(variants, n)
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	for _, g := range variants {
		v, err := fr.VariantReader(g.PathString())
		if err != nil {
			return err
		}
		if err := drain(v); err != nil {
			return err
		}
	}
	for _, l := range s.Leaves {
		if underAny(l, variants) {
			continue
		}
		open := leafReaders[l.Type]
		if open == nil {
			return fmt.Errorf("column %q: physical type %d", l.PathString(), l.Type)
		}
		c, err := open(fr, l.Column)
		if err != nil {
			return err
		}
		if err := drain(c); err != nil {
			return err
		}
	}
	return nil
}

// leafReaders open the typed reader of a leaf, by physical type.
var leafReaders = map[meta.Type]func(*runtime.FileReader, int) (runtime.ColumnRows, error){
	meta.Boolean:           rows((*runtime.FileReader).BoolReader),
	meta.Int32:             rows((*runtime.FileReader).Int32Reader),
	meta.Int64:             rows((*runtime.FileReader).Int64Reader),
	meta.Int96:             rows((*runtime.FileReader).Int96Reader),
	meta.Float:             rows((*runtime.FileReader).FloatReader),
	meta.Double:            rows((*runtime.FileReader).DoubleReader),
	meta.ByteArray:         rows((*runtime.FileReader).ByteArrayReader),
	meta.FixedLenByteArray: rows((*runtime.FileReader).FixedReader),
}

// rows turns a typed reader constructor into one of ColumnRows.
func rows[T runtime.ColumnRows](open func(*runtime.FileReader, int) (T, error)) func(*runtime.FileReader, int) (runtime.ColumnRows, error) {
	return func(r *runtime.FileReader, col int) (runtime.ColumnRows, error) { return open(r, col) }
}

// drain reads c to its end (io.EOF, or no more rows).
func drain(c runtime.ColumnRows) error {
	for {
		n, err := c.ReadRows(scanBatch)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
	}
}

// underAny reports whether n lies below one of the groups gs.
func underAny(n *schema.Node, gs []*schema.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		for _, g := range gs {
			if p == g {
				return true
			}
		}
	}
	return false
}
