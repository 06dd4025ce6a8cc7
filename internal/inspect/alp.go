package inspect

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/bits"
	"slices"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/page"
	"github.com/pqgen/pqgen/runtime/schema"
)

// ALPPages summarises the ALP data pages of a column chunk (ALP, encoding
// 10, is in preview on the format's development head): their vectors and
// the parameters the writer chose.
type ALPPages struct {
	Pages      int `json:"pages"`
	Vectors    int `json:"vectors"`
	Values     int `json:"values"`
	Exceptions int `json:"exceptions"`
	// VectorSizes are the distinct vector sizes of the pages' headers.
	VectorSizes []int `json:"vector_sizes"`
	// Params counts the vectors per (exponent, factor) pair, as
	// "e=2 f=0 ×14", the most used first.
	Params []string `json:"params"`
	// MinBitWidth and MaxBitWidth bound the vectors' bit widths.
	MinBitWidth int `json:"min_bit_width"`
	MaxBitWidth int `json:"max_bit_width"`
	// Error tells why the pages could not all be read.
	Error string `json:"error,omitempty"`
}

// maxALPChunk bounds the bytes inspect reads to describe a chunk's ALP
// pages.
const maxALPChunk = 256 << 20

// alpPages reads the pages of an unencrypted chunk that lists ALP among
// its encodings and describes its ALP pages; nil for other chunks.
func alpPages(f *runtime.File, leaf *schema.Node, md *meta.ColumnMetaData) *ALPPages {
	if !slices.Contains(md.Encodings, meta.EncodingALP) {
		return nil
	}
	out := &ALPPages{MinBitWidth: -1}
	if err := readALPPages(f, leaf, md, out); err != nil {
		out.Error = err.Error()
	}
	if out.MinBitWidth < 0 {
		out.MinBitWidth = 0
	}
	return out
}

func readALPPages(f *runtime.File, leaf *schema.Node, md *meta.ColumnMetaData, out *ALPPages) error {
	start := md.DataPageOffset
	if md.DictionaryPageOffset.Set && md.DictionaryPageOffset.Val > 0 && md.DictionaryPageOffset.Val < start {
		start = md.DictionaryPageOffset.Val
	}
	size := md.TotalCompressedSize
	if start < 4 || size < 0 || size > maxALPChunk || start+size > f.FooterOffset {
		return fmt.Errorf("chunk of %d bytes at %d: not read", size, start)
	}
	buf := make([]byte, size)
	if _, err := f.ReaderAt().ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	lim := f.MetaLimits()
	params := map[string]int{}
	sizes := map[int]bool{}
	for pos := 0; pos < len(buf); {
		at := start + int64(pos)
		ph, n, err := meta.DecodePageHeader(buf[pos:], &lim)
		if err != nil {
			return fmt.Errorf("page header at %d: %w", at, err)
		}
		body := buf[pos+n:]
		if err := page.CheckHeader(ph, int64(len(body)), page.Limits{MaxPageSize: maxALPChunk}); err != nil {
			return fmt.Errorf("page at %d: %w", at, err)
		}
		body = body[:ph.CompressedPageSize]
		pos += n + int(ph.CompressedPageSize)
		vals, err := alpValueBytes(ph, body, leaf, md.Codec)
		if err != nil {
			return fmt.Errorf("page at %d: %w", at, err)
		}
		if vals == nil {
			continue
		}
		h, vs, err := encode.InspectALP(vals, leaf.Type == meta.Double)
		if err != nil {
			return fmt.Errorf("ALP page at %d: %w", at, err)
		}
		out.Pages++
		out.Values += h.NumElements
		sizes[h.VectorSize()] = true
		for _, v := range vs {
			out.Vectors++
			out.Exceptions += v.Exceptions
			params[fmt.Sprintf("e=%d f=%d", v.Exponent, v.Factor)]++
			if out.MinBitWidth < 0 || v.BitWidth < out.MinBitWidth {
				out.MinBitWidth = v.BitWidth
			}
			out.MaxBitWidth = max(out.MaxBitWidth, v.BitWidth)
		}
	}
	out.VectorSizes = slices.Sorted(maps.Keys(sizes))
	keys := slices.Sorted(maps.Keys(params))
	slices.SortStableFunc(keys, func(a, b string) int { return params[b] - params[a] })
	for _, k := range keys {
		out.Params = append(out.Params, fmt.Sprintf("%s ×%d", k, params[k]))
	}
	return nil
}

// alpValueBytes returns the decompressed value section of an ALP data
// page (past its levels), or nil for other pages.
func alpValueBytes(ph *meta.PageHeader, body []byte, leaf *schema.Node, codec meta.CompressionCodec) ([]byte, error) {
	switch {
	case ph.Type == meta.DataPage && ph.DataPageHeader != nil && ph.DataPageHeader.Encoding == meta.EncodingALP:
		raw, err := compress.Decompress(nil, body, codec, int(ph.UncompressedPageSize))
		if err != nil {
			return nil, err
		}
		n := int(ph.DataPageHeader.NumValues)
		for _, lv := range []struct {
			max uint8
			enc meta.Encoding
		}{{leaf.MaxRep, ph.DataPageHeader.RepetitionLevelEncoding}, {leaf.MaxDef, ph.DataPageHeader.DefinitionLevelEncoding}} {
			if lv.max == 0 {
				continue
			}
			k := (n*bits.Len8(lv.max) + 7) / 8 // BIT_PACKED
			if lv.enc == meta.EncodingRLE {
				if len(raw) < 4 {
					return nil, errors.New("levels truncated")
				}
				k = 4 + int(binary.LittleEndian.Uint32(raw))
			}
			if k < 0 || k > len(raw) {
				return nil, errors.New("levels truncated")
			}
			raw = raw[k:]
		}
		return raw, nil
	case ph.Type == meta.DataPageV2 && ph.DataPageHeaderV2 != nil && ph.DataPageHeaderV2.Encoding == meta.EncodingALP:
		h := ph.DataPageHeaderV2
		lv := int64(h.RepetitionLevelsByteLength) + int64(h.DefinitionLevelsByteLength)
		if h.RepetitionLevelsByteLength < 0 || h.DefinitionLevelsByteLength < 0 || lv > int64(len(body)) || lv > int64(ph.UncompressedPageSize) {
			return nil, errors.New("levels truncated")
		}
		if !h.IsCompressed.Or(true) || codec == meta.Uncompressed {
			return body[lv:], nil
		}
		return compress.Decompress(nil, body[lv:], codec, int(int64(ph.UncompressedPageSize)-lv))
	}
	return nil, nil
}
