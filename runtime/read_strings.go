// Strings of BYTE_ARRAY values: substrings of one copy of the dictionary
// for dictionary-encoded pages (PLAIN_DICTIONARY / RLE_DICTIONARY, see
// https://parquet.apache.org/docs/file-format/data-pages/encodings/).

package runtime

import (
	"slices"
	"sort"

	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/page"
)

// stringRefs remembers, for the values of the current batch, where in its
// dictionary's bytes each dictionary-encoded value starts (-1 for values
// that were not dictionary-encoded; the value's length is that of the
// batch's offsets), and holds each dictionary the batch uses as one
// string and its offsets, copied when the dictionary is first met (the
// page decoder reuses its dictionary buffers): the string of a
// dictionary-encoded value is a substring of its dictionary's, so a
// dictionary costs two allocations however many of its entries are used,
// and a kept string keeps its dictionary's copy alive. A lazy reader
// (ByteArrayReader.lazy) records the values of other pages the same way,
// each page's value bytes taken over as the string of a dictionary whose
// entries it uses in order (lend).
type stringRefs struct {
	// refs holds the start of each value in its span's dictionary bytes:
	// a start, not the entry, so that get reads refs and the batch's
	// offsets in order and never the dictionary's offsets, at random. A
	// dictionary page is under 2 GiB (its header's sizes are int32), so a
	// start fits an int32.
	refs  []int32
	spans []strSpan // the values from spans[k].start on use spans[k].dict
	one   strDict   // the dictionary of the only span; zero unless there is one

	dictID uint64  // the dictionary dict was copied from, across batches
	dict   strDict // 0 when none has been met yet

	// all holds the batch's value bytes as one string, made on the first
	// String of a value that was not dictionary-encoded: such values are
	// substrings of it, so a batch costs no allocation per value. all
	// shares the memory of the batch's Values buffer (batchString), which
	// the reader then leaves to the strings (hasAll tells it so).
	all    string
	hasAll bool
}

// strDict is a copy of a BYTE_ARRAY dictionary: entry e is
// data[offs[e]:offs[e+1]].
type strDict struct {
	data string
	offs []uint32
}

type strSpan struct {
	start  int
	dictID uint64
	dict   strDict
}

func (s *stringRefs) reset() {
	s.all, s.hasAll = "", false
	s.refs = s.refs[:0]
	clear(s.spans)
	s.spans = s.spans[:0]
	s.one = strDict{}
}

// add records values [from, to) of p, which take the batch positions from
// base on. Values that were not dictionary-encoded cost nothing unless a
// dictionary-encoded page follows them in the batch: get treats the
// positions past the end of refs as such. Only pages read with
// LazyDictBytes (p.DictBytes set) have their dictionary recorded; the
// values of others are plain values of the batch.
func (s *stringRefs) add(p *page.Page, base, from, to int) {
	d := p.DictBytes
	if !p.Dict || d == nil {
		return
	}
	if p.DictID != s.dictID || s.dict.offs == nil {
		// Copied, not shared: the decoder reuses its dictionary buffers.
		s.dictID = p.DictID
		s.dict = strDict{data: string(d.Data), offs: append(make([]uint32, 0, len(d.Offsets)), d.Offsets...)}
	}
	// The decoder has range checked the indices against the dictionary.
	refs, offs := s.grow(base, to-from), s.dict.offs
	for k, e := range p.Indices[from:to] {
		refs[k] = int32(offs[e])
	}
}

// lend records values [from, to) of p, a page that was not
// dictionary-encoded, which take the batch positions from base on, as
// substrings of p's value bytes: when it meets the page, it makes those
// bytes the string of a span, as if they were a dictionary whose entries
// the page uses in order, and marks them kept (Page.KeepBytes), so that
// the decoder decodes the next page into a new buffer and never writes
// them again. The batch then copies no value bytes; the strings share
// the page's. A reader that meets the page after another (the back
// reader of a read-ahead, see swapBatch) shares the same bytes.
func (s *stringRefs) lend(p *page.Page, base, from, to int) {
	if p.BytesID != s.dictID {
		s.dictID = p.BytesID
		s.dict = strDict{data: batchString(p.Values.Bytes.Data)}
		p.KeepBytes = true
	}
	refs := s.grow(base, to-from)
	for k, o := range p.Values.Bytes.Offsets[from:to] {
		refs[k] = int32(o) // canLend: at most maxLentPage bytes
	}
}

// grow records n values from batch position base on, in the span of the
// current dictionary (a new span when the last one used another), and
// returns their refs to fill.
func (s *stringRefs) grow(base, n int) []int32 {
	for len(s.refs) < base {
		s.refs = append(s.refs, -1)
	}
	if len(s.spans) == 0 || s.spans[len(s.spans)-1].dictID != s.dictID {
		s.spans = append(s.spans, strSpan{start: len(s.refs), dictID: s.dictID, dict: s.dict})
		s.one = strDict{}
		if len(s.spans) == 1 {
			s.one = s.dict
		}
	}
	n0 := len(s.refs)
	s.refs = slices.Grow(s.refs, n)[:n0+n]
	return s.refs[n0:]
}

// get returns value i of v as a string: a substring of its dictionary's
// string, or of all. The common case, a batch of one dictionary, reads
// refs[i] and v's offsets of value i, in order, and no search of the
// spans.
func (s *stringRefs) get(v *encode.ByteArrays, i int) string {
	if i < len(s.refs) {
		// st < 0 (not dictionary-encoded) fails the bound, as does every
		// start when the batch has more than one span (s.one is zero).
		if st := uint(s.refs[i]); st < uint(len(s.one.data)) {
			return s.one.data[st : st+uint(v.Offsets[i+1]-v.Offsets[i])]
		}
	} else if s.hasAll {
		return s.all[v.Offsets[i]:v.Offsets[i+1]]
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
				d := &s.spans[k].dict
				if end := uint64(e) + uint64(v.Offsets[i+1]-v.Offsets[i]); end <= uint64(len(d.data)) {
					return d.data[e:end]
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

// plain returns value i, which was not dictionary-encoded, as a substring
// of the batch's value bytes, which it shares (see batchString).
func (s *stringRefs) plain(v *encode.ByteArrays, i int) string {
	if !s.hasAll {
		s.makeAll(v)
	}
	return s.all[v.Offsets[i]:v.Offsets[i+1]]
}

// makeAll makes all, the string of the batch's value bytes (gathered
// first when a lazy batch left out those of its dictionary-encoded values).
func (s *stringRefs) makeAll(v *encode.ByteArrays) {
	s.gather(v)
	s.all, s.hasAll = batchString(v.Data), true
}

// gather fills v.Data with the bytes of the batch's values when a lazy
// ByteArrayReader left those of its dictionary-encoded values out: v.Data
// is then shorter than the offsets say, and empty, so the values that were
// not dictionary-encoded are all empty.
func (s *stringRefs) gather(v *encode.ByteArrays) {
	n := v.Len()
	if n == 0 || int(v.Offsets[n]) == len(v.Data) {
		return
	}
	data := slices.Grow(v.Data[:0], int(v.Offsets[n]))
	for i, e := range s.refs {
		if e >= 0 {
			data = append(data, s.getSlow(v, i)...)
		}
	}
	v.Data = data
}

// afterShared returns an empty buffer for the next batch of a byte-array
// column whose last batch, d, strings share: the room after d when it
// holds a batch of about d's size, else a new buffer (stringBufCap). The
// bytes of d are never written again.
func afterShared(d []byte) []byte {
	need := len(d) + len(d)/16 + 64
	if cap(d)-len(d) >= need {
		return d[len(d):len(d):cap(d)]
	}
	return make([]byte, 0, stringBufCap(need))
}

// stringBufCap returns the capacity of a new value buffer for batches of
// about need bytes that strings share: room for eight such batches when
// they are small (many small Reads, or the tiles of a wide type's Read,
// see ReadTile), one allocation instead of eight; a large batch gets a
// buffer of its own, so that at most 8*smallStringBatch bytes of a buffer
// are ever left unused.
func stringBufCap(need int) int {
	if need <= smallStringBatch {
		return 8 * need
	}
	return need
}

// smallStringBatch is the largest batch, in value bytes, for which
// stringBufCap makes room for eight.
const smallStringBatch = 16 << 10
