// Page headers: the Thrift PageHeader that precedes every page of a column
// chunk, and the bounds a reader applies to it before allocating (see
// PageHeader in parquet.thrift and
// https://parquet.apache.org/docs/file-format/data-pages/).

package page

import (
	"errors"
	"fmt"

	"github.com/pqgen/pqgen/runtime/meta"
)

// DecodeHeader decodes the page header at the start of src into h (reused,
// see (*meta.PageHeader).DecodeThrift) and returns its encoded length.
// maxHeader bounds that length (0 means DefaultLimits.MaxHeaderSize). The
// error wraps ErrHeader (with meta.ErrTruncated when src ends inside the
// header) or ErrTooLarge.
func DecodeHeader(h *meta.PageHeader, src []byte, maxHeader int) (int, error) {
	n, _, err := DecodeHeaderNotes(h, src, maxHeader)
	return n, err
}

// DecodeHeaderNotes is DecodeHeader that also returns the header's
// integer fields written with another Thrift integer type than their own
// (meta.WidthNote), read because their values fit.
func DecodeHeaderNotes(h *meta.PageHeader, src []byte, maxHeader int) (int, []meta.WidthNote, error) {
	if maxHeader <= 0 {
		maxHeader = DefaultLimits.MaxHeaderSize
	}
	if len(src) > maxHeader {
		src = src[:maxHeader]
	}
	lim := meta.Limits{MaxStringLen: maxHeader, MaxContainerLen: maxHeader, MaxDepth: 32}
	n, notes, err := h.DecodeThriftNotes(src, &lim)
	if err != nil {
		if errors.Is(err, meta.ErrTruncated) && len(src) == maxHeader {
			return n, nil, fmt.Errorf("%w: page header longer than %d bytes: %w", ErrTooLarge, maxHeader, err)
		}
		return n, nil, fmt.Errorf("%w: %w", ErrHeader, err)
	}
	return n, notes, nil
}

// CheckHeader validates the sizes and counts a decoded header declares:
// sizes non-negative, the compressed size within the remaining bytes of
// the chunk (remaining < 0 means unknown) and both sizes within
// lim.MaxPageSize, the header matching the page type present, counts
// non-negative and within lim.MaxValues, v2 level sections within the
// page.
func CheckHeader(h *meta.PageHeader, remaining int64, lim Limits) error {
	lim = lim.norm()
	cs, us := h.CompressedPageSize, h.UncompressedPageSize
	switch {
	case cs < 0 || us < 0:
		return fmt.Errorf("%w: negative page size (compressed %d, uncompressed %d)", ErrHeader, cs, us)
	case remaining >= 0 && int64(cs) > remaining:
		return fmt.Errorf("%w: compressed page size %d exceeds the %d bytes left in the column chunk", ErrCorrupt, cs, remaining)
	case int(cs) > lim.MaxPageSize:
		return fmt.Errorf("%w: compressed page size %d exceeds the limit of %d bytes (WithMaxPageSize)", ErrTooLarge, cs, lim.MaxPageSize)
	case int(us) > lim.MaxPageSize:
		return fmt.Errorf("%w: uncompressed page size %d exceeds the limit of %d bytes (WithMaxPageSize)", ErrTooLarge, us, lim.MaxPageSize)
	}
	var nv int32
	switch h.Type {
	case meta.DataPage:
		if h.DataPageHeader == nil {
			return fmt.Errorf("%w: DATA_PAGE without data_page_header", ErrHeader)
		}
		nv = h.DataPageHeader.NumValues
	case meta.DataPageV2:
		v2 := h.DataPageHeaderV2
		if v2 == nil {
			return fmt.Errorf("%w: DATA_PAGE_V2 without data_page_header_v2", ErrHeader)
		}
		nv = v2.NumValues
		rl, dl := v2.RepetitionLevelsByteLength, v2.DefinitionLevelsByteLength
		switch {
		case rl < 0 || dl < 0:
			return fmt.Errorf("%w: negative level section length (repetition %d, definition %d)", ErrHeader, rl, dl)
		case int64(rl)+int64(dl) > int64(cs):
			return fmt.Errorf("%w: level sections of %d+%d bytes exceed the compressed page size %d", ErrCorrupt, rl, dl, cs)
		case int64(rl)+int64(dl) > int64(us):
			return fmt.Errorf("%w: level sections of %d+%d bytes exceed the uncompressed page size %d", ErrCorrupt, rl, dl, us)
		case v2.NumNulls < 0 || v2.NumNulls > v2.NumValues:
			return fmt.Errorf("%w: num_nulls %d with num_values %d", ErrHeader, v2.NumNulls, v2.NumValues)
		case v2.NumRows < 0:
			return fmt.Errorf("%w: negative num_rows %d", ErrHeader, v2.NumRows)
		}
	case meta.DictionaryPage:
		if h.DictionaryPageHeader == nil {
			return fmt.Errorf("%w: DICTIONARY_PAGE without dictionary_page_header", ErrHeader)
		}
		nv = h.DictionaryPageHeader.NumValues
	default:
		return nil
	}
	if nv < 0 {
		return fmt.Errorf("%w: negative num_values %d", ErrHeader, nv)
	}
	if int(nv) > lim.MaxValues {
		return fmt.Errorf("%w: num_values %d exceeds the limit of %d (WithMaxPageValues)", ErrTooLarge, nv, lim.MaxValues)
	}
	return nil
}
