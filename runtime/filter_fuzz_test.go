package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
	"github.com/pqgen/pqgen/runtime/meta"
)

// FuzzFilter opens arbitrary bytes as a Parquet file and reads every
// column under predicates on its first non-repeated leaves (statistics,
// page indexes and bloom filters come from the input), with and without
// read coalescing: it must never panic, hang or allocate beyond the
// limits. Seeds: a file of every type with page indexes and bloom filters,
// one with a list column in pages of 60 rows, and the small files of the
// corpus.
func FuzzFilter(f *testing.F) {
	f.Add(writeFilterFile(f, randRows(newRand(4), 300), WithPageRowLimit(40), WithRowGroupSize(8<<10),
		WithColumnBloomFilter("i64", 100, 0.01), WithColumnBloomFilter("s", 100, 0.01)), uint8(0))
	// A list column with level histograms: filtered reads pass over its
	// pages by them (cursor.pageSlots).
	f.Add(listPagesFile(f, 600, 60, true), uint8(3))
	if dir, ok := corpus.Lookup(); ok {
		ents, _ := os.ReadDir(filepath.Join(dir, "data"))
		for _, e := range ents {
			if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".parquet") && info.Size() <= 32<<10 {
				if b, err := os.ReadFile(filepath.Join(dir, "data", e.Name())); err == nil {
					f.Add(b, uint8(len(b)))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, sel uint8) {
		limits := []ReaderOption{WithMaxFooterSize(1 << 20), WithMaxPageSize(1 << 20), WithMaxPageValues(1 << 16),
			WithMetaLimits(meta.Limits{MaxStringLen: 1 << 16, MaxContainerLen: 1 << 12, MaxDepth: 32})}
		fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), limits...)
		if err != nil || len(fr.File().Meta.RowGroups)*len(fr.File().Schema.Leaves) > 256 {
			return
		}
		var ps, es []Predicate // on non-repeated leaves; on elements
		for _, l := range fr.File().Schema.Leaves {
			if l.MaxRep > 0 && len(es) < 2 {
				n := max(boundLen(predicateOrder(l), l.Type, l.TypeLength), 0)
				if l.Type == meta.FixedLenByteArray {
					n = int(l.TypeLength)
				}
				key := make([]byte, n)
				copy(key, data[min(len(data), int(sel)):])
				es = append(es, &predLeaf{path: l.PathString(), op: predOp(int(sel)+len(es)) % opIn, phys: l.Type,
					keys: [][]byte{key}, show: []string{"k"}, elem: true})
			}
			if l.MaxRep > 0 || len(ps) == 3 {
				continue
			}
			n := boundLen(predicateOrder(l), l.Type, l.TypeLength)
			if sel%7 == 6 {
				n = int(sel % 5) // a key of the wrong length: an ErrFilter, not a panic
			}
			if l.Type == meta.FixedLenByteArray {
				n = int(l.TypeLength)
			}
			if n < 0 {
				n = int(sel % 5)
			}
			key := make([]byte, n)
			copy(key, data[min(len(data), int(sel)):])
			op := predOp((int(sel) + len(ps)) % (int(opNotNull) + 1))
			p := &predLeaf{path: l.PathString(), op: op, phys: l.Type, keys: [][]byte{key, key}, show: []string{"k", "k"}}
			if op != opIn && op != opBetween {
				p.keys, p.show = p.keys[:1], p.show[:1]
			}
			if op == opIsNull || op == opNotNull {
				p.keys, p.show = nil, nil
			}
			ps = append(ps, p)
		}
		var variants [][]ReaderOption
		if len(es) > 0 {
			// Elements: one or both of the first two repeated leaves, and
			// SameElement over them (refused when they are not in the
			// elements of one list).
			same := Or(SameElement(And(es[0], Not(es[len(es)-1]))), Not(SameElement(es[0])))
			variants = append(variants, []ReaderOption{WithFilter(Or(same, And(es...)))})
		}
		if len(ps) == 0 {
			if len(variants) == 0 {
				return
			}
			ps = append(ps, es[0])
		}
		pred := Or(And(ps...), Not(ps[0]))
		variants = append(variants, []ReaderOption{WithFilter(pred)}, []ReaderOption{WithFilter(And(ps...)), WithReadCoalescing(1<<10, 1<<20)})
		if rows := fr.File().Meta.RowGroups; len(rows) > 0 && rows[0].NumRows > 0 {
			// A part of the first row group, as ReadFileWith reads one:
			// its rows as the row group's ranges, the pages before them
			// passed over by the offset index.
			n := rows[0].NumRows
			part := &rowGroupPart{rowGroup: 0, rows: rowRange{n / 256 * int64(sel), n}}
			variants = append(variants, []ReaderOption{withPart(part)}, []ReaderOption{withPart(part), WithFilter(pred)})
		}
		for _, extra := range variants {
			fr, err := NewFileReader(bytes.NewReader(data), int64(len(data)), append(limits, extra...)...)
			if err != nil {
				continue
			}
			fr.NumRows()
			for col := range fr.File().Schema.Leaves {
				readFuzzColumn(fr, col)
			}
		}
	})
}
