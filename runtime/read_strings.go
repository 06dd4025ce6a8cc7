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
	one   []string  // the cache of the only span, nil unless there is one

	dictID uint64
	cache  []string

	// all holds the batch's value bytes as one string, made on the first
	// String of a value that was not dictionary-encoded: such values are
	// substrings of it, so a batch costs no allocation per value. all
	// shares the memory of the batch's Values buffer (batchString), which
	// the reader then leaves to the strings (hasAll tells it so).
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
	s.one = nil
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
		s.one = nil
		if len(s.spans) == 1 {
			s.one = s.cache
		}
	}
	s.refs = append(s.refs, p.Indices[from:to]...)
}

// get returns value i of v as a string: the cached string of its
// dictionary entry (made on first use), or a substring of all. The common
// case, a batch of one dictionary whose entry i has been made already,
// takes two loads and no search of the spans.
func (s *stringRefs) get(v *encode.ByteArrays, i int) string {
	if i < len(s.refs) {
		// e < 0 (not dictionary-encoded) fails the bound.
		if e := uint(s.refs[i]); e < uint(len(s.one)) && s.one[e] != "" {
			return s.one[e]
		}
	}
	return s.getSlow(v, i)
}

// getSlow is get for every case.
func (s *stringRefs) getSlow(v *encode.ByteArrays, i int) string {
	if uint(i) < uint(len(s.refs)) {
		if e := s.refs[i]; e >= 0 {
			// The last span starting at or before i: usually the only one.
			k := len(s.spans) - 1
			if k > 0 && s.spans[k].start > i {
				k = s.span(i)
			}
			if k >= 0 {
				if cache := s.spans[k].cache; uint(e) < uint(len(cache)) {
					if str := cache[e]; str != "" {
						return str
					}
					return fill(cache, e, v.At(i))
				}
			}
			return string(v.At(i))
		}
	}
	return s.plain(v, i)
}

// span returns the index of the last span starting at or before i, -1 if
// none does.
func (s *stringRefs) span(i int) int {
	return sort.Search(len(s.spans), func(j int) bool { return s.spans[j].start > i }) - 1
}

// fill makes the string of dictionary entry e (b, its bytes) and caches it.
func fill(cache []string, e int32, b []byte) string {
	str := string(b)
	cache[e] = str
	return str
}

// plain returns value i, which was not dictionary-encoded, as a substring
// of the batch's value bytes, which it shares (see batchString).
func (s *stringRefs) plain(v *encode.ByteArrays, i int) string {
	if !s.hasAll {
		s.all, s.hasAll = batchString(v.Data), true
	}
	return s.all[v.Offsets[i]:v.Offsets[i+1]]
}
