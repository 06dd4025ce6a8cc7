// The column chunk reader: the sequence of pages (an optional dictionary
// page, then data pages, possibly index pages) stored between a chunk's
// first page offset and total_compressed_size bytes later, read with
// bounded ReadAt calls. See ColumnMetaData in parquet.thrift and
// https://parquet.apache.org/docs/file-format/data-pages/.

package page

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"

	"github.com/pqgen/pqgen/runtime/meta"
)

// readAhead is the least a chunk reader asks of its io.ReaderAt at once
// (less at the end of the chunk). A variable for tests.
var readAhead int64 = 256 << 10

// headerProbe is the first guess at a page header's length; sparseProbe
// the guess when pages are being skipped.
const (
	headerProbe = 4 << 10
	sparseProbe = 256
)

// ChunkOptions configure a ChunkReader.
type ChunkOptions struct {
	// Limits bound header, page and value counts.
	Limits Limits
	// VerifyCRC checks the crc field of the pages that carry one.
	VerifyCRC bool
	// Decryptor, when not nil, decrypts page headers and bodies.
	Decryptor Decryptor
	// Sparse reads only the bytes each page needs instead of reading
	// ahead; set it when pages will be skipped (SkipPage), so that their
	// bodies are never read.
	Sparse bool
	// LazyDictBytes leaves dictionary-encoded BYTE_ARRAY values
	// unresolved (see Page.DictBytes), for callers that copy them out
	// anyway: it saves one copy of every value.
	LazyDictBytes bool
	// PlaintextPageSizes, with a Decryptor: the headers' compressed_page_size
	// gives the size of the page before encryption, not of the stored
	// module (DuckDB 1.5 writes them so), and each encrypted page body
	// takes the length its module's length field states.
	PlaintextPageSizes bool
}

// ChunkReader reads the pages of one column chunk. Reset points it at a
// chunk; Next returns its data pages in order, decoding the dictionary
// page (recognised by its page type, wherever the metadata says the chunk
// starts) and skipping index pages. Buffers are reused from page to page
// and from chunk to chunk. The zero value is ready for Reset.
type ChunkReader struct {
	r     io.ReaderAt
	col   Column
	opts  ChunkOptions
	dec   Decoder
	start int64 // first byte of the chunk
	end   int64 // one past its last byte
	pos   int64 // file offset of the next page header

	win    []byte // buffered bytes [winOff, winOff+len(win))
	winOff int64
	own    []byte // the window's own buffer while win is the chunk in memory
	inMem  bool   // win is the whole chunk, in r's memory (memory.go)
	last   int64  // stored size of the last data page (header and body), the next window's size hint

	hdr     meta.PageHeader
	bufs    [2]Page // bufs[cur] is the page Next returned; Prefetch decodes into the other
	cur     int
	ahead   prefetched
	ordinal int  // data pages returned so far
	pages   int  // pages of any type read so far
	skipped bool // a page was skipped: read no further ahead than needed
	plain   []byte
	err     error
	widths  []meta.WidthNote // see TakeWidthNotes
}

// Reset prepares c to read the chunk of length bytes at offset start of r.
// The caller has checked that the range lies within the file.
func (c *ChunkReader) Reset(r io.ReaderAt, start, length int64, col Column, opts ChunkOptions) {
	c.r = r
	c.col = col
	c.opts = opts
	c.opts.Limits = opts.Limits.norm()
	c.dec.Reset(col, c.opts.Limits)
	c.dec.lazyBytes = opts.LazyDictBytes
	c.start, c.end, c.pos = start, start+length, start
	c.dropMemory()
	c.win = c.win[:0]
	c.winOff = start
	c.useMemory(r)
	c.ordinal, c.pages = 0, 0
	c.last = 0
	c.skipped = opts.Sparse
	c.err = nil
	c.widths = nil
	c.ahead = prefetched{}
}

// Column returns the column being read.
func (c *ChunkReader) Column() Column { return c.col }

// Detach drops c's references to its file and decryptor, keeping its
// buffers, for a pool of chunk readers: c is usable again only after
// Reset, which reuses them, so no Page it returned stays valid.
func (c *ChunkReader) Detach() {
	c.dropMemory()
	c.r = nil
	c.opts = ChunkOptions{}
	c.err = nil
	c.widths = nil
	c.ahead = prefetched{}
}

// Decoder returns the page decoder of the chunk (its dictionary).
func (c *ChunkReader) Decoder() *Decoder { return &c.dec }

// fail wraps err with the location of the current page and makes it sticky.
func (c *ChunkReader) fail(pageOrdinal int, off int64, err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		c.err = err
		return err
	}
	c.err = &Error{Column: c.col.Path, RowGroup: c.col.RowGroup, Page: pageOrdinal, Offset: off, Err: err}
	return c.err
}

// ensure returns the n bytes at file offset off, reading those the window
// lacks and more ahead, within the chunk: a window of readAhead bytes at
// least, or of the last data page's size and an eighth.
// Precondition: off >= c.start, off+n <= c.end.
func (c *ChunkReader) ensure(off int64, n int) ([]byte, error) {
	if off >= c.winOff && off+int64(n) <= c.winOff+int64(len(c.win)) {
		i := int(off - c.winOff)
		return c.win[i : i+n : i+n], nil
	}
	if c.inMem {
		// The window is the whole chunk (memory.go), and callers ask
		// only for bytes inside it.
		return nil, fmt.Errorf("%w: %d bytes needed at offset %d, outside the chunk [%d, %d)", ErrCorrupt, n, off, c.start, c.end)
	}
	// A window takes the next page whole when it is as large as the last
	// data page (an eighth more): one ReadAt a page, where pages larger
	// than readAhead took two.
	want := max(int64(n), readAhead, c.last+c.last/8)
	if c.skipped {
		// Pages are being skipped: read only what is needed (and a small
		// probe for the next header), so that skipped bodies are never
		// read.
		want = int64(n + sparseProbe)
	}
	if rest := c.end - off; want > rest {
		want = rest
	}
	if want < int64(n) {
		return nil, fmt.Errorf("%w: %d bytes needed at offset %d, the chunk ends at %d", ErrCorrupt, n, off, c.end)
	}
	// The bytes the window holds from off on (the start of a page body
	// whose header the window ended in, or of a page it cut) move to its
	// front and only the rest is read: each byte of the chunk is read
	// from r once, however its pages fall across windows.
	keep := 0
	if off >= c.winOff && off < c.winOff+int64(len(c.win)) {
		keep = int(c.winOff + int64(len(c.win)) - off) // < n <= want
	}
	if int64(cap(c.win)) < want {
		w := make([]byte, want)
		copy(w, c.win[len(c.win)-keep:])
		c.win = w
	} else {
		copy(c.win, c.win[len(c.win)-keep:])
		c.win = c.win[:want]
	}
	c.winOff = off
	m, err := c.r.ReadAt(c.win[keep:], off+int64(keep))
	m += keep
	if m < len(c.win) {
		c.win = c.win[:m]
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if m < n {
			return nil, fmt.Errorf("%w: reading %d bytes at offset %d: %w", ErrCorrupt, want, off, err)
		}
	}
	return c.win[:n:n], nil
}

// readHeader decodes the page header at c.pos and returns its stored
// length.
func (c *ChunkReader) readHeader() (int, error) {
	rest := c.end - c.pos
	maxH := int64(c.opts.Limits.MaxHeaderSize)
	if c.opts.Decryptor != nil {
		lb, err := c.ensure(c.pos, min(4, int(rest)))
		if err != nil {
			return 0, err
		}
		if len(lb) < 4 {
			return 0, fmt.Errorf("%w: encrypted page header length cut by the chunk end", ErrCorrupt)
		}
		l := int64(binary.LittleEndian.Uint32(lb))
		if l > rest-4 || l > maxH+64 {
			return 0, fmt.Errorf("%w: encrypted page header of %d bytes, %d left in the chunk", ErrCorrupt, l, rest-4)
		}
		src, err := c.ensure(c.pos, int(4+l))
		if err != nil {
			return 0, err
		}
		m := Module{Kind: ModuleDataPageHeader, RowGroup: c.col.RowGroup, Column: c.col.Index, Page: c.ordinal}
		plain, n, err := c.opts.Decryptor.Header(src, m)
		if err != nil {
			return 0, fmt.Errorf("%w: decrypting the page header: %w", ErrCorrupt, err)
		}
		k, notes, err := DecodeHeaderNotes(&c.hdr, plain, int(maxH))
		c.noteWidths(notes)
		if err != nil {
			return 0, err
		}
		// parquet-mr 1.14 pads the plaintext of encrypted Thrift modules
		// with zero bytes; anything else after the header is corruption.
		if k != len(plain) && bytes.ContainsFunc(plain[k:], func(r rune) bool { return r != 0 }) {
			return 0, fmt.Errorf("%w: %d bytes follow the decrypted page header", ErrHeader, len(plain)-k)
		}
		return n, nil
	}
	probe := min(rest, headerProbe, maxH)
	avail := c.winOff + int64(len(c.win)) - c.pos
	if c.pos < c.winOff {
		avail = 0
	}
	if c.skipped {
		probe = min(rest, sparseProbe, maxH)
		if avail >= 64 {
			probe = min(avail, rest, maxH)
		}
	}
	// Use what the window already holds beyond the probe, if anything.
	if avail > probe {
		probe = min(avail, rest, maxH)
	}
	for {
		src, err := c.ensure(c.pos, int(probe))
		if err != nil {
			return 0, err
		}
		n, notes, err := DecodeHeaderNotes(&c.hdr, src, int(maxH))
		if err == nil {
			c.noteWidths(notes)
			return n, nil
		}
		if !errors.Is(err, meta.ErrTruncated) || probe >= rest || probe >= maxH {
			return 0, err
		}
		probe = min(2*probe, rest, maxH)
	}
}

// moduleOverhead is the most an encrypted module adds to its plaintext
// past the length field: the 12-byte nonce and the 16-byte AES-GCM tag.
const moduleOverhead = 12 + 16

// bodyLen returns the stored length of the body of the page whose header
// h ends at bodyOff: compressed_page_size, or with PlaintextPageSizes the
// length of the encrypted module found there (bounded by the chunk and
// by compressed_page_size, the plaintext's, plus moduleOverhead).
func (c *ChunkReader) bodyLen(h *meta.PageHeader, bodyOff int64) (int64, error) {
	enc := h.Type == meta.DataPage || h.Type == meta.DataPageV2 || h.Type == meta.DictionaryPage
	if c.opts.Decryptor == nil || !c.opts.PlaintextPageSizes || !enc {
		return int64(h.CompressedPageSize), nil
	}
	rest := c.end - bodyOff
	if rest < 4 {
		return 0, fmt.Errorf("%w: encrypted page length cut by the chunk end", ErrCorrupt)
	}
	lb, err := c.ensure(bodyOff, 4)
	if err != nil {
		return 0, err
	}
	l := int64(binary.LittleEndian.Uint32(lb))
	if l > int64(h.CompressedPageSize)+moduleOverhead {
		return 0, fmt.Errorf("%w: encrypted page of %d bytes for a page of %d", ErrCorrupt, l, h.CompressedPageSize)
	}
	if l > rest-4 {
		return 0, fmt.Errorf("%w: encrypted page of %d bytes, %d left in the chunk", ErrCorrupt, l, rest-4)
	}
	return 4 + l, nil
}

// noteWidths keeps the fields of notes not yet kept (see TakeWidthNotes).
func (c *ChunkReader) noteWidths(notes []meta.WidthNote) {
	for _, n := range notes {
		if !slices.Contains(c.widths, n) && len(c.widths) < 32 {
			c.widths = append(c.widths, n)
		}
	}
}

// TakeWidthNotes returns the page header fields met so far that were
// written with another Thrift integer type than their own and read
// because their values fit (meta.WidthNote), each once, and forgets them.
func (c *ChunkReader) TakeWidthNotes() []meta.WidthNote {
	n := c.widths
	c.widths = nil
	return n
}

// Next returns the next data page of the chunk, decoded, or io.EOF after
// the last one. The page and its buffers are reused by the next call
// (after a Prefetch, by the call after it). Errors are *Error values and
// are sticky.
func (c *ChunkReader) Next() (*Page, error) {
	if a := c.ahead; a.set {
		c.ahead = prefetched{}
		if a.err == nil {
			c.cur ^= 1
		}
		return a.p, a.err
	}
	p, _, err := c.next(true, &c.bufs[c.cur])
	return p, err
}

// prefetched is the data page Prefetch decoded ahead of Next, or the error
// it met, and the reader's position before it, to which SkipPage and
// SkipTo return.
type prefetched struct {
	set     bool
	p       *Page
	err     error
	pos     int64
	ordinal int
	pages   int
	widths  int
}

// Prefetch reads and decodes the next data page now, so that the next
// Next returns it (or the error met) without work: for a reader with a
// goroutine to spare while the caller is busy with the page Next
// returned last, which stays valid, as the two pages use two sets of
// buffers. The page header Page.Header points to is the prefetched
// page's from then on. Prefetch does nothing when a page is prefetched
// already, before the chunk's first data page, or after an error. It
// reports whether it read ahead (a page, the end of the chunk or an
// error). Whether the next page is wanted is the caller's to know: a
// page prefetched and then skipped (SkipPage, SkipTo) was read and
// decoded for nothing, and on a reader that skips pages (ChunkOptions.
// Sparse) its bytes were read. Like every method of c, it must not run
// concurrently with another.
func (c *ChunkReader) Prefetch() bool {
	if c.ahead.set || c.err != nil || c.r == nil || c.ordinal == 0 {
		return false
	}
	a := prefetched{set: true, pos: c.pos, ordinal: c.ordinal, pages: c.pages, widths: len(c.widths)}
	a.p, _, a.err = c.next(true, &c.bufs[c.cur^1])
	c.ahead = a
	return true
}

// Prefetched reports whether a Prefetch read ahead (a page, the end of the
// chunk or an error) that no Next, SkipPage or SkipTo has taken since.
func (c *ChunkReader) Prefetched() bool { return c.ahead.set }

// unfetch forgets the page Prefetch decoded and returns the reader to
// where it was before, for SkipPage and SkipTo.
func (c *ChunkReader) unfetch() {
	a := c.ahead
	if !a.set {
		return
	}
	c.ahead = prefetched{}
	c.pos, c.ordinal, c.pages, c.err = a.pos, a.ordinal, a.pages, nil
	if a.widths <= len(c.widths) {
		c.widths = c.widths[:a.widths]
	}
}

// SkipPage passes over the next data page without decompressing or
// decoding it (a dictionary page met on the way is decoded) and returns
// its header, valid until the next call, or io.EOF after the last page.
// The skipped page's checksum is not verified.
func (c *ChunkReader) SkipPage() (*meta.PageHeader, error) {
	c.unfetch()
	_, h, err := c.next(false, nil)
	return h, err
}

// Pos returns the file offset of the next page header to read.
func (c *ChunkReader) Pos() int64 {
	if c.ahead.set {
		return c.ahead.pos
	}
	return c.pos
}

// SkipTo passes over the data pages between Pos and file offset off,
// pages of them, without reading their headers: off is where the chunk's
// offset index places the next page the caller wants. Their ordinals are
// counted (the next page returned is numbered after them). The caller
// knows the pages' values from the offset index; a dictionary page must
// not lie in between (it is read before the chunk's first data page). It
// moves nothing and reports false unless off lies after Pos and before
// the chunk's end.
func (c *ChunkReader) SkipTo(off int64, pages int) bool {
	if c.ahead.set && off > c.ahead.pos && off < c.end {
		c.unfetch()
	}
	if c.err != nil || off <= c.pos || off >= c.end {
		return false
	}
	c.skipped = true
	c.pos = off
	c.ordinal += pages
	c.pages += pages
	return true
}

func (c *ChunkReader) next(decode bool, into *Page) (*Page, *meta.PageHeader, error) {
	if c.err != nil {
		return nil, nil, c.err
	}
	for {
		if c.pos >= c.end {
			return nil, nil, io.EOF
		}
		off := c.pos
		n, err := c.readHeader()
		if err != nil {
			return nil, nil, c.fail(c.ordinal, off, fmt.Errorf("page header: %w", err))
		}
		h := &c.hdr
		ord := c.ordinal
		if h.Type == meta.DictionaryPage {
			ord = DictionaryPage
		}
		bodyOff := off + int64(n)
		if err := CheckHeader(h, c.end-bodyOff, c.opts.Limits); err != nil {
			return nil, nil, c.fail(ord, off, err)
		}
		stored, err := c.bodyLen(h, bodyOff)
		if err != nil {
			return nil, nil, c.fail(ord, off, err)
		}
		if !decode && (h.Type == meta.DataPage || h.Type == meta.DataPageV2) {
			// Skipped: the body is not even read.
			c.skipped = true
			c.pos = bodyOff + stored
			c.pages++
			c.ordinal++
			return nil, h, nil
		}
		body, err := c.ensure(bodyOff, int(stored))
		if err != nil {
			return nil, nil, c.fail(ord, off, err)
		}
		c.pos = bodyOff + stored
		c.pages++
		if h.Type == meta.DataPage || h.Type == meta.DataPageV2 {
			c.last = c.pos - off
		}
		if c.opts.VerifyCRC && h.CRC.Set && (h.Type == meta.DataPage || h.Type == meta.DataPageV2 || h.Type == meta.DictionaryPage) {
			if got := crc32.ChecksumIEEE(body); got != uint32(h.CRC.Val) {
				return nil, nil, c.fail(ord, off, fmt.Errorf("%w: crc field %#08x, stored bytes %#08x", ErrCRC, uint32(h.CRC.Val), got))
			}
		}
		if c.opts.Decryptor != nil && (h.Type == meta.DataPage || h.Type == meta.DataPageV2 || h.Type == meta.DictionaryPage) {
			kind := ModuleDataPage
			if h.Type == meta.DictionaryPage {
				kind = ModuleDictionaryPage
			}
			m := Module{Kind: kind, RowGroup: c.col.RowGroup, Column: c.col.Index, Page: c.ordinal}
			plain, err := c.opts.Decryptor.Body(c.plain, body, m)
			if err != nil {
				return nil, nil, c.fail(ord, off, fmt.Errorf("%w: decrypting the page: %w", ErrCorrupt, err))
			}
			c.plain = plain
			body = plain
			// The header's sizes describe the plaintext.
			h.CompressedPageSize = int32(len(body))
		}
		switch h.Type {
		case meta.DictionaryPage:
			if c.ordinal > 0 || c.dec.hasDict {
				return nil, nil, c.fail(ord, off, fmt.Errorf("%w: a dictionary page after the chunk's first page", ErrCorrupt))
			}
			if err := c.dec.DecodeDictionaryPage(h, body); err != nil {
				return nil, nil, c.fail(ord, off, err)
			}
		case meta.DataPage, meta.DataPageV2:
			into.Ordinal = c.ordinal
			into.Offset = off
			c.ordinal++
			if err := c.dec.DecodeDataPage(h, body, into); err != nil {
				return nil, nil, c.fail(ord, off, err)
			}
			return into, h, nil
		default:
			// INDEX_PAGE and unknown page types carry nothing to read.
		}
	}
}
