// Row group and footer writing: each column chunk (dictionary page, then
// data pages), the row group's bloom filters, and at Close the column
// indexes and offset indexes of every chunk
// (https://parquet.apache.org/docs/file-format/pageindex/) followed by the
// FileMetaData (https://parquet.apache.org/docs/file-format/metadata/).

package runtime

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime/debug"
	"sync"

	"github.com/pqgen/pqgen/runtime/crypt"
	"github.com/pqgen/pqgen/runtime/meta"
)

// Version is the version of pqgen's runtime, written in created_by.
const Version = "0.1.0"

var createdBy = sync.OnceValue(func() string {
	build := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				build = s.Value
			}
		}
	}
	return "pqgen version " + Version + " (build " + build + ")"
})

// CreatedBy returns the created_by string the writer stores by default:
// "pqgen version <Version> (build <vcs revision, or unknown>)".
func CreatedBy() string { return createdBy() }

// chunkIndex locates the encoded page indexes of one closed chunk in
// FileWriter.idxBuf.
type chunkIndex struct {
	rg, col        int
	ciOff, ciLen   int // column index; ciLen 0 when absent
	oiOff, oiLen   int
	hasColumnIndex bool
}

// flushRowGroup writes the open row group.
func (fw *FileWriter) flushRowGroup() error {
	fw.pipe.deferPages = false // the chunks are written right after
	if err := fw.forColumns(opCutPage, 0); err != nil {
		return err
	}
	if err := fw.awaitPages(); err != nil {
		return err
	}
	rgIndex := len(fw.rowGroups)
	rg := meta.RowGroup{
		Columns:        make([]meta.ColumnChunk, len(fw.cols)),
		NumRows:        fw.rgRows,
		SortingColumns: fw.cfg.SortingColumns,
	}
	if rgIndex <= math.MaxInt16 { // the ordinal is an i16: omitted beyond
		rg.Ordinal = meta.Some(int16(rgIndex))
	} else if fw.crypto != nil {
		return fmt.Errorf("%w: row group %d: encrypted files hold at most %d row groups (module AADs number them in 16 bits)", crypt.ErrOrdinal, rgIndex, math.MaxInt16+1)
	}
	start := fw.w.n
	for i, c := range fw.cols {
		c.sc = fw.pageScratch(0)
		cc, err := c.writeChunk(&fw.w)
		if err != nil {
			return fmt.Errorf("row group %d: %w", rgIndex, err)
		}
		rg.Columns[i] = cc
		rg.TotalByteSize += cc.MetaData.TotalUncompressedSize
	}
	rg.FileOffset = meta.Some(start)
	rg.TotalCompressedSize = meta.Some(fw.w.n - start)
	for i, c := range fw.cols {
		f := c.set.bloom
		if f == nil {
			continue
		}
		off := fw.w.n
		fw.scratch = f.AppendTo(fw.scratch[:0])
		if c.crypto != nil {
			hl := len(fw.scratch) - f.NumBytes()
			enc, err := c.encryptBloom(nil, fw.scratch, hl)
			if err != nil {
				return fmt.Errorf("row group %d: column %q: bloom filter: %w", rgIndex, c.node.PathString(), err)
			}
			fw.scratch = enc
		}
		if _, err := fw.w.Write(fw.scratch); err != nil {
			return fmt.Errorf("row group %d: writing the bloom filter of column %q: %w", rgIndex, c.node.PathString(), err)
		}
		md := rg.Columns[i].MetaData
		md.BloomFilterOffset = meta.Some(off)
		md.BloomFilterLength = meta.Some(int32(len(fw.scratch)))
		clear(f.Bytes())
	}
	for i, c := range fw.cols {
		if c.opt.pageIndex {
			ix := c.encodeIndexes(rgIndex, i, &fw.idxBuf, rg.Columns[i].MetaData.DataPageOffset)
			if c.crypto != nil {
				if err := c.encryptIndexes(&ix, &fw.idxBuf); err != nil {
					return fmt.Errorf("row group %d: column %q: page index: %w", rgIndex, c.node.PathString(), err)
				}
			}
			fw.indexes = append(fw.indexes, ix)
		}
		c.resetChunk()
	}
	fw.rowGroups = append(fw.rowGroups, rg)
	fw.rgRows = 0
	return nil
}

// writeChunk writes the open chunk (dictionary page, data pages) to w and
// returns its metadata.
func (c *leafWriter) writeChunk(w *countingWriter) (meta.ColumnChunk, error) {
	start := w.n
	md := &meta.ColumnMetaData{
		Type:             c.node.Type,
		PathInSchema:     c.path,
		Codec:            c.opt.codec,
		NumValues:        c.chunk.slots,
		KeyValueMetadata: c.opt.kv,
	}
	var dictSize int64
	encs := make([]meta.Encoding, 0, 4)
	addEnc := func(e meta.Encoding) {
		for _, x := range encs {
			if x == e {
				return
			}
		}
		encs = append(encs, e)
	}
	var stats []meta.PageEncodingStats
	if c.chunk.dictPages > 0 {
		body, n := c.vals.dictPage(c.fw.scratch[:0])
		c.fw.scratch = body
		enc := meta.EncodingPlainDictionary
		if c.opt.version == 2 {
			enc = meta.EncodingPlain
		}
		buf, built, err := c.builder().AppendDictionaryPage(c.sc.values[:0], n, enc, body)
		if err != nil {
			return meta.ColumnChunk{}, fmt.Errorf("column %q: dictionary page: %w", c.node.PathString(), err)
		}
		c.sc.values = buf
		if _, err := w.Write(buf); err != nil {
			return meta.ColumnChunk{}, fmt.Errorf("column %q: writing the dictionary page: %w", c.node.PathString(), err)
		}
		dictSize = int64(len(buf))
		md.DictionaryPageOffset = meta.Some(start)
		md.TotalUncompressedSize += int64(built.HeaderSize + built.UncompressedSize)
		md.TotalCompressedSize += dictSize
		addEnc(enc)
		stats = append(stats, meta.PageEncodingStats{PageType: meta.DictionaryPage, Encoding: enc, Count: 1})
	}
	if err := c.chunk.store.writeTo(w); err != nil {
		return meta.ColumnChunk{}, fmt.Errorf("column %q: writing %d data pages: %w", c.node.PathString(), len(c.chunk.pages), err)
	}
	md.DataPageOffset = start + dictSize
	md.TotalUncompressedSize += c.chunk.uncompSize
	md.TotalCompressedSize += c.chunk.compSize
	// The values' encodings come before the levels' RLE: parquet-go takes
	// the first listed encoding other than BIT_PACKED as the column's when
	// it derives a schema from a file, and a column of INT32 values
	// "encoded" RLE cannot be written back.
	for _, e := range c.chunk.encStats {
		addEnc(e.Encoding)
	}
	if c.maxDef > 0 || c.maxRep > 0 {
		addEnc(meta.EncodingRLE)
	}
	md.Encodings = encs
	md.EncodingStats = append(stats, c.chunk.encStats...)
	if c.set.stats {
		mn, mx, ok := c.chunkBounds()
		if c.nanOutsideBounds(c.chunk.nans) {
			// A chunk holding NaN gets no min and max (its NaN count
			// says why), as DuckDB and Polars write it: DuckDB 1.5
			// prunes with min and max as the bounds of every value,
			// NaN included (it orders NaN above all), and with min ==
			// max takes every row as that value.
			ok = false
		}
		md.Statistics = c.statistics(mn, mx, ok, c.chunk.nulls, c.chunk.nans)
		if v, ok := c.vals.(*byteArrayValues); ok && v.geo != nil {
			// GEOGRAPHY edges are not straight in X/Y, so a box of the
			// vertices could exclude parts of them: a box only for
			// spherical edges, whose box covers them (geo.NewSphericalStats).
			g := c.node.Logical.Geography
			md.GeospatialStatistics = v.geo.Meta(c.node.Logical.Kind == meta.LogicalGeometry || g.Algorithm.Or(meta.Spherical) == meta.Spherical)
		}
	}
	if c.opt.sizeStats {
		ss := &meta.SizeStatistics{}
		if c.node.Type == meta.ByteArray {
			ss.UnencodedByteArrayDataBytes = meta.Some(c.chunk.unencoded)
		}
		if c.maxRep > 0 {
			ss.RepetitionLevelHistogram = append([]int64(nil), c.chunk.repHist...)
		}
		if c.maxDef > 0 {
			ss.DefinitionLevelHistogram = append([]int64(nil), c.chunk.defHist...)
		}
		md.SizeStatistics = ss
	}
	return meta.ColumnChunk{MetaData: md}, nil
}

// encodeIndexes appends the Thrift encodings of the open chunk's column
// index (when it can have one) and offset index to *buf. dataOff is the
// file offset of the chunk's first data page.
func (c *leafWriter) encodeIndexes(rg, col int, buf *[]byte, dataOff int64) chunkIndex {
	ix := chunkIndex{rg: rg, col: col}
	n := len(c.chunk.pages)
	if c.set.stats && c.set.order != orderNone && !c.chunk.noColIndex {
		ci := meta.ColumnIndex{
			NullPages:  make([]bool, n),
			MinValues:  make([][]byte, n),
			MaxValues:  make([][]byte, n),
			NullCounts: make([]int64, n),
		}
		if c.set.order.isFloat() {
			ci.NanCounts = make([]int64, n)
		}
		var prevMin, prevMax []byte
		asc, desc, seen := true, true, false
		for i := range c.chunk.pages {
			p := &c.chunk.pages[i]
			ci.NullCounts[i] = p.nulls
			if ci.NanCounts != nil {
				ci.NanCounts[i] = p.nans
			}
			if !p.bounds {
				ci.NullPages[i] = true
				ci.MinValues[i] = []byte{}
				ci.MaxValues[i] = []byte{}
				continue
			}
			mn := c.chunk.pageBounds[p.minOff : p.minOff+p.minLen]
			mx := c.chunk.pageBounds[p.minOff+p.minLen : p.minOff+p.minLen+p.maxLen]
			ci.MinValues[i], ci.MaxValues[i] = mn, mx
			if seen {
				cmin, cmax := compareBounds(c.set.order, mn, prevMin), compareBounds(c.set.order, mx, prevMax)
				if cmin < 0 || cmax < 0 {
					asc = false
				}
				if cmin > 0 || cmax > 0 {
					desc = false
				}
			}
			prevMin, prevMax, seen = mn, mx, true
		}
		switch {
		case asc:
			ci.BoundaryOrder = meta.Ascending
		case desc:
			ci.BoundaryOrder = meta.Descending
		default:
			ci.BoundaryOrder = meta.Unordered
		}
		if c.opt.sizeStats && (c.maxRep > 0 || c.maxDef > 0) {
			stride := 0
			if c.maxRep > 0 {
				stride += int(c.maxRep) + 1
			}
			if c.maxDef > 0 {
				stride += int(c.maxDef) + 1
			}
			for i := 0; i < n; i++ {
				h := c.chunk.pageHists[i*stride : (i+1)*stride]
				if c.maxRep > 0 {
					ci.RepetitionLevelHistograms = append(ci.RepetitionLevelHistograms, h[:int(c.maxRep)+1]...)
					h = h[int(c.maxRep)+1:]
				}
				if c.maxDef > 0 {
					ci.DefinitionLevelHistograms = append(ci.DefinitionLevelHistograms, h...)
				}
			}
		}
		ix.ciOff = len(*buf)
		*buf = ci.AppendThrift(*buf)
		ix.ciLen = len(*buf) - ix.ciOff
		ix.hasColumnIndex = true
	}
	oi := meta.OffsetIndex{PageLocations: make([]meta.PageLocation, n)}
	for i := range c.chunk.pages {
		p := &c.chunk.pages[i]
		oi.PageLocations[i] = meta.PageLocation{Offset: dataOff + p.offset, CompressedPageSize: p.size, FirstRowIndex: p.firstRow}
	}
	if c.opt.sizeStats && c.node.Type == meta.ByteArray {
		oi.UnencodedByteArrayDataBytes = make([]int64, n)
		for i := range c.chunk.pages {
			oi.UnencodedByteArrayDataBytes[i] = c.chunk.pages[i].unencoded
		}
	}
	ix.oiOff = len(*buf)
	*buf = oi.AppendThrift(*buf)
	ix.oiLen = len(*buf) - ix.oiOff
	return ix
}

// resetChunk empties the chunk state after its row group was written.
func (c *leafWriter) resetChunk() {
	c.chunk.reset(&c.fw.free)
	c.startChunk()
}

// indexWriteBytes is about the size of writeFooter's writes of page
// indexes.
const indexWriteBytes = 256 << 10

// writeFooter writes the page indexes, the FileMetaData, its length and
// the trailing magic.
func (fw *FileWriter) writeFooter() error {
	// The page indexes go out gathered in writes of indexWriteBytes or
	// so, not one write each: a file of many row groups and columns holds
	// thousands, each a system call on an *os.File.
	// A failed write names the index it stopped in: in is which indexes
	// out holds, ends where each ends in out.
	out := fw.scratch[:0]
	var in, ends []int
	flush := func(what string) error {
		if len(out) == 0 {
			return nil
		}
		n, err := fw.w.Write(out)
		out = out[:0]
		if err != nil {
			k := 0
			for k < len(ends)-1 && ends[k] <= n {
				k++
			}
			ix := &fw.indexes[in[k]]
			return fmt.Errorf("row group %d: column %q: writing the %s: %w", ix.rg, fw.schema.Leaves[ix.col].PathString(), what, err)
		}
		in, ends = in[:0], ends[:0]
		return nil
	}
	add := func(i int, b []byte, what string) (int64, error) {
		if len(out)+len(b) > indexWriteBytes {
			if err := flush(what); err != nil {
				return 0, err
			}
		}
		off := fw.w.n + int64(len(out))
		out = append(out, b...)
		in, ends = append(in, i), append(ends, len(out))
		return off, nil
	}
	for i := range fw.indexes {
		ix := &fw.indexes[i]
		if !ix.hasColumnIndex {
			continue
		}
		off, err := add(i, fw.idxBuf[ix.ciOff:ix.ciOff+ix.ciLen], "column index")
		if err != nil {
			return err
		}
		cc := &fw.rowGroups[ix.rg].Columns[ix.col]
		cc.ColumnIndexOffset = meta.Some(off)
		cc.ColumnIndexLength = meta.Some(int32(ix.ciLen))
	}
	if err := flush("column index"); err != nil {
		return err
	}
	for i := range fw.indexes {
		ix := &fw.indexes[i]
		off, err := add(i, fw.idxBuf[ix.oiOff:ix.oiOff+ix.oiLen], "offset index")
		if err != nil {
			return err
		}
		cc := &fw.rowGroups[ix.rg].Columns[ix.col]
		cc.OffsetIndexOffset = meta.Some(off)
		cc.OffsetIndexLength = meta.Some(int32(ix.oiLen))
	}
	if err := flush("offset index"); err != nil {
		return err
	}
	fw.scratch = out
	md := meta.FileMetaData{
		Version:          1,
		Schema:           fw.schema.Elements(),
		NumRows:          fw.numRows,
		RowGroups:        fw.rowGroups,
		KeyValueMetadata: fw.cfg.KeyValueMetadata,
		CreatedBy:        meta.Some(fw.cfg.CreatedBy),
		ColumnOrders:     make([]meta.ColumnOrder, len(fw.cols)),
	}
	if md.RowGroups == nil {
		md.RowGroups = []meta.RowGroup{}
	}
	if fw.cfg.CreatedBy == "" {
		md.CreatedBy = meta.Some(CreatedBy())
	}
	for i, c := range fw.cols {
		md.ColumnOrders[i] = meta.ColumnOrder{Kind: c.opt.colOrder}
	}
	var buf []byte
	if fw.crypto != nil {
		if err := fw.encryptColumnMetadata(); err != nil {
			return fmt.Errorf("encrypting column metadata: %w", err)
		}
		var err error
		if buf, err = fw.appendEncryptedFooter(fw.scratch[:0], &md); err != nil {
			return fmt.Errorf("encrypting the footer: %w", err)
		}
	} else {
		buf = md.AppendThrift(fw.scratch[:0])
		n := len(buf)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
		buf = append(buf, Magic...)
	}
	fw.scratch = buf
	if _, err := fw.w.Write(buf); err != nil {
		return fmt.Errorf("writing the footer: %w", err)
	}
	return nil
}
