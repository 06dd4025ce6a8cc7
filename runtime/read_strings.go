// Strings of BYTE_ARRAY values: one string per dictionary entry for
// dictionary-encoded pages (PLAIN_DICTIONARY / RLE_DICTIONARY, see
// https://parquet.apache.org/docs/file-format/data-pages/encodings/).

package runtime

import (
	"sort"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/page"
)

// stringRefs remembers, for the values of the current batch, which
// dictionary entry each came from (-1 for values that were not
// dictionary-encoded), and caches one string per entry of the current
// dictionary.
type stringRefs struct {
	refs  []int32
	spans []strSpan // the values from spans[k].start on use spans[k].cache

	dictID uint64
	cache  []string

	// all holds the batch's value bytes as one string, made on the first
	// String of a value that was not dictionary-encoded: such values are
	// substrings of it, so a batch costs one allocation, not one per value.
	all    string
	hasAll bool
}

type strSpan struct {
	start  int
	dictID uint64
	cache  []string
}

func (s *stringRefs) reset() {
	s.all, s.hasAll = "", false
	s.refs = s.refs[:0]
	clear(s.spans)
	s.spans = s.spans[:0]
}

// add records values [from, to) of p, which take the batch positions from
// base on. Values that were not dictionary-encoded cost nothing unless a
// dictionary-encoded page follows them in the batch: get treats the
// positions past the end of refs as such.
func (s *stringRefs) add(p *page.Page, base, from, to int) {
	if !p.Dict {
		return
	}
	for len(s.refs) < base {
		s.refs = append(s.refs, -1)
	}
	if p.DictID != s.dictID || s.cache == nil {
		s.dictID = p.DictID
		s.cache = make([]string, p.DictLen)
	}
	if len(s.spans) == 0 || s.spans[len(s.spans)-1].dictID != s.dictID {
		s.spans = append(s.spans, strSpan{start: len(s.refs), dictID: s.dictID, cache: s.cache})
	}
	s.refs = append(s.refs, p.Indices[from:to]...)
}

func (s *stringRefs) get(v *encode.ByteArrays, i int) string {
	if i >= len(s.refs) || s.refs[i] < 0 {
		if !s.hasAll {
			s.all, s.hasAll = string(v.Data), true
		}
		return s.all[v.Offsets[i]:v.Offsets[i+1]]
	}
	b := v.At(i)
	// The last span starting at or before i (usually the only one).
	k := len(s.spans) - 1
	if k > 0 && s.spans[k].start > i {
		k = sort.Search(len(s.spans), func(j int) bool { return s.spans[j].start > i }) - 1
	}
	if k < 0 || s.spans[k].start > i {
		return string(b)
	}
	cache := s.spans[k].cache
	e := s.refs[i]
	if int(e) >= len(cache) {
		return string(b)
	}
	if cache[e] == "" && len(b) > 0 {
		cache[e] = string(b)
	}
	return cache[e]
}
