// Page building, the write side of the page layout of
// https://parquet.apache.org/docs/file-format/data-pages/: a Thrift
// compact PageHeader followed by the page body. A data page v1 body is
// the repetition levels, the definition levels (each RLE with a 4-byte
// length prefix, absent when the maximum level is 0) and the values,
// compressed as a whole; a data page v2 body keeps both level sections
// uncompressed and without prefix (their lengths are in the header) and
// compresses only the values. The optional CRC is the CRC-32 (IEEE) of the
// body as written, see
// https://parquet.apache.org/docs/file-format/data-pages/checksumming/.

package page

import (
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"

	"github.com/pqgen/pqgen/runtime/compress"
	"github.com/pqgen/pqgen/runtime/encode"
	"github.com/pqgen/pqgen/runtime/meta"
)

// Builder encodes pages with one codec, reusing its scratch buffers: once
// warm it allocates nothing per page. The zero value writes uncompressed
// pages without CRC.
type Builder struct {
	// Codec and Level compress page bodies.
	Codec meta.CompressionCodec
	Level compress.Level
	// CRC adds the CRC-32 of each page body to its header (of the body as
	// stored: encrypted when the page is).
	CRC bool
	// Encryptor, when not nil, encrypts every page as Parquet modular
	// encryption stores it: the body as a page module, then the header,
	// whose compressed_page_size and CRC describe the encrypted body, as
	// a page header module.
	Encryptor Encryptor

	body   []byte // uncompressed body (v1) or levels (v2)
	comp   []byte // compressed body
	sealed []byte // encrypted body
	hdrBuf []byte // plaintext header of an encrypted page
	hdr    meta.PageHeader
	dph    meta.DataPageHeader
	dph2   meta.DataPageHeaderV2
	dict   meta.DictionaryPageHeader
	prep   prepared // the data page PrepareDataPage started
}

// DataPageParams describes one data page to build.
type DataPageParams struct {
	// Version is 1 (DATA_PAGE) or 2 (DATA_PAGE_V2).
	Version int
	// NumValues counts the value slots (levels), NumNulls the slots
	// without a value, NumRows the rows (v2 only).
	NumValues, NumNulls, NumRows int
	// Encoding is the encoding of Values.
	Encoding meta.Encoding
	// Rep and Def are the levels (one per slot; ignored when the maximum
	// level is 0).
	Rep, Def       []uint8
	MaxRep, MaxDef uint8
	// Values is the encoded values section.
	Values []byte
	// Statistics, when not nil, goes into the page header.
	Statistics *meta.Statistics
	// Store asks for the values to be left uncompressed: a DATA_PAGE_V2
	// says so in its header (is_compressed), a DATA_PAGE of a codec with a
	// stored form (compress.CanStore) wraps its body in that form; other
	// DATA_PAGEs are compressed as usual (Built.Stored tells which).
	Store bool
	// Ordinal is the page's ordinal among the data pages of its column
	// chunk: it enters the page's encryption modules (Builder.Encryptor).
	Ordinal int
}

// Built describes a page appended by a Builder.
type Built struct {
	// HeaderSize is the length of the Thrift page header.
	HeaderSize int
	// CompressedSize and UncompressedSize are the body sizes the header
	// records (compressed_page_size and uncompressed_page_size).
	CompressedSize, UncompressedSize int
	// Stored: the codec was skipped (DataPageParams.Store).
	Stored bool
}

// Size returns the number of bytes of the whole page: header and body.
func (b Built) Size() int { return b.HeaderSize + b.CompressedSize }

// LevelBitWidth returns the bit width of levels whose maximum is max.
func LevelBitWidth(max uint8) int { return bits.Len8(max) }

// Buffers returns the builder's reusable buffers (the body, the compressed
// and the encrypted body, the header of an encrypted page), for a caller
// that pools them: between pages it may take them away, leaving nil, or
// put empty buffers of any capacity in their place; the builder grows
// whatever it finds.
func (b *Builder) Buffers() [4]*[]byte {
	return [4]*[]byte{&b.body, &b.comp, &b.sealed, &b.hdrBuf}
}

// AppendDataPage appends the data page p (header, then body) to dst.
func (b *Builder) AppendDataPage(dst []byte, p *DataPageParams) ([]byte, Built, error) {
	if err := b.prepareData(p, false); err != nil {
		return dst, Built{}, err
	}
	return b.FinishDataPage(dst)
}

// PrepareDataPage starts the data page p: it encodes the levels and copies
// the values into the builder's buffers and fills the header but for the
// sizes and the CRC, without compressing. FinishDataPage then appends the
// page, the same bytes AppendDataPage appends, so that a page can be
// compressed later, on another goroutine, once p's buffers are reused.
// The builder keeps p.Statistics, which must not change until then.
func (b *Builder) PrepareDataPage(p *DataPageParams) error {
	return b.prepareData(p, true)
}

// prepareData is PrepareDataPage; without own, the builder keeps
// p.Values instead of copying them (a DATA_PAGE_V2's values, which
// FinishDataPage compresses straight from them).
func (b *Builder) prepareData(p *DataPageParams, own bool) error {
	b.prep = prepared{}
	if p.NumValues < 0 || p.NumValues > math.MaxInt32 || p.NumNulls < 0 || p.NumRows < 0 || p.NumRows > math.MaxInt32 {
		return fmt.Errorf("page: %d values, %d nulls, %d rows do not fit a page header", p.NumValues, p.NumNulls, p.NumRows)
	}
	b.hdr = meta.PageHeader{}
	switch p.Version {
	case 1:
		raw := b.body[:0]
		if p.MaxRep > 0 {
			raw = encode.AppendRLELevelsPrefixed(raw, p.Rep, LevelBitWidth(p.MaxRep))
		}
		if p.MaxDef > 0 {
			raw = encode.AppendRLELevelsPrefixed(raw, p.Def, LevelBitWidth(p.MaxDef))
		}
		raw = append(raw, p.Values...)
		b.body = raw
		b.prep.uncompressed = len(raw)
		b.dph = meta.DataPageHeader{
			NumValues:               int32(p.NumValues),
			Encoding:                p.Encoding,
			DefinitionLevelEncoding: meta.EncodingRLE,
			RepetitionLevelEncoding: meta.EncodingRLE,
			Statistics:              p.Statistics,
		}
		b.hdr.Type = meta.DataPage
		b.hdr.DataPageHeader = &b.dph
	case 2:
		lv := b.body[:0]
		if p.MaxRep > 0 {
			lv = encode.AppendRLELevels(lv, p.Rep, LevelBitWidth(p.MaxRep))
		}
		repLen := len(lv)
		if p.MaxDef > 0 {
			lv = encode.AppendRLELevels(lv, p.Def, LevelBitWidth(p.MaxDef))
		}
		defLen := len(lv) - repLen
		b.prep.levels = len(lv)
		if own {
			lv = append(lv, p.Values...)
			b.prep.vals = lv[b.prep.levels:]
		} else {
			b.prep.vals = p.Values
		}
		b.body = lv
		// An empty values section (every slot null) is stored
		// uncompressed: a codec's frame of nothing is pure overhead, and
		// arrow-go v18.8.0 cannot decode an empty Brotli frame into its
		// zero-length destination.
		b.prep.compressV2 = b.Codec != meta.Uncompressed && len(p.Values) > 0 && !p.Store
		b.prep.uncompressed = repLen + defLen + len(p.Values)
		b.dph2 = meta.DataPageHeaderV2{
			NumValues:                  int32(p.NumValues),
			NumNulls:                   int32(p.NumNulls),
			NumRows:                    int32(p.NumRows),
			Encoding:                   p.Encoding,
			DefinitionLevelsByteLength: int32(defLen),
			RepetitionLevelsByteLength: int32(repLen),
			IsCompressed:               meta.Some(b.prep.compressV2),
			Statistics:                 p.Statistics,
		}
		b.hdr.Type = meta.DataPageV2
		b.hdr.DataPageHeaderV2 = &b.dph2
	default:
		return fmt.Errorf("page: data page version %d", p.Version)
	}
	b.prep.ok, b.prep.own = true, own
	b.prep.version, b.prep.store, b.prep.ordinal = p.Version, p.Store, p.Ordinal
	return nil
}

// prepared is the data page a Builder's PrepareDataPage started.
type prepared struct {
	ok, own      bool
	version      int
	store        bool
	ordinal      int
	uncompressed int    // uncompressed_page_size
	levels       int    // v2: the levels' bytes at the start of body
	vals         []byte // v2: the values section, not compressed yet
	compressV2   bool   // v2: the values are compressed
}

// FinishDataPage appends the data page PrepareDataPage started (header,
// then body) to dst: it compresses the body, and encrypts and checksums
// it as the builder is set to.
func (b *Builder) FinishDataPage(dst []byte) ([]byte, Built, error) {
	dst, body, built, err := b.FinishDataPageParts(dst)
	if err != nil {
		return dst, built, err
	}
	return append(dst, body...), built, nil
}

// FinishDataPageParts is FinishDataPage returning the body apart instead
// of appending it after the header: hdr is dst with the header appended,
// and body, the builder's memory, stays valid until its next call.
func (b *Builder) FinishDataPageParts(dst []byte) (hdr, body []byte, built Built, err error) {
	pr := b.prep
	b.prep = prepared{} // keeps none of the caller's values
	if !pr.ok {
		return dst, nil, Built{}, fmt.Errorf("page: FinishDataPage without a prepared page")
	}
	stored := false // the codec was skipped
	switch pr.version {
	case 1:
		raw := b.body
		if pr.store && compress.CanStore(b.Codec) {
			b.comp, _ = compress.AppendStored(b.comp[:0], raw, b.Codec)
			body, stored = b.comp, true
		} else if body, err = b.compress(raw); err != nil {
			return dst, nil, Built{}, err
		}
	default:
		stored = pr.store && b.Codec != meta.Uncompressed
		lv := b.body[:pr.levels]
		switch {
		case pr.compressV2 && pr.own:
			// The values sit after the levels in body: compress them
			// into comp, behind a copy of the levels.
			out, err := compress.Compress(append(b.comp[:0], lv...), pr.vals, b.Codec, b.Level)
			if err != nil {
				return dst, nil, Built{}, fmt.Errorf("page: %w", err)
			}
			b.comp, body = out, out
		case pr.compressV2:
			if lv, err = compress.Compress(lv, pr.vals, b.Codec, b.Level); err != nil {
				return dst, nil, Built{}, fmt.Errorf("page: %w", err)
			}
			b.body, body = lv, lv
		case pr.own:
			body = b.body[:pr.levels+len(pr.vals)]
		default:
			lv = append(lv, pr.vals...)
			b.body, body = lv, lv
		}
	}
	dst, body, built, err = b.finishParts(dst, body, pr.uncompressed, pr.ordinal)
	built.Stored = stored
	return dst, body, built, err
}

// AppendDictionaryPage appends a dictionary page of numValues entries
// whose body (PLAIN-encoded entries) is values; enc is PLAIN or
// PLAIN_DICTIONARY (the name data page v1 files traditionally use).
func (b *Builder) AppendDictionaryPage(dst []byte, numValues int, enc meta.Encoding, values []byte) ([]byte, Built, error) {
	if numValues < 0 || numValues > math.MaxInt32 {
		return dst, Built{}, fmt.Errorf("page: %d dictionary entries do not fit a page header", numValues)
	}
	body, err := b.compress(values)
	if err != nil {
		return dst, Built{}, err
	}
	b.hdr = meta.PageHeader{Type: meta.DictionaryPage}
	b.dict = meta.DictionaryPageHeader{NumValues: int32(numValues), Encoding: enc}
	b.hdr.DictionaryPageHeader = &b.dict
	return b.finish(dst, body, len(values), 0)
}

func (b *Builder) compress(raw []byte) ([]byte, error) {
	if b.Codec == meta.Uncompressed {
		return raw, nil
	}
	c, err := compress.Compress(b.comp[:0], raw, b.Codec, b.Level)
	if err != nil {
		return nil, fmt.Errorf("page: %w", err)
	}
	b.comp = c
	return c, nil
}

func (b *Builder) finish(dst, body []byte, uncompressed, ordinal int) ([]byte, Built, error) {
	dst, body, built, err := b.finishParts(dst, body, uncompressed, ordinal)
	if err != nil {
		return dst, built, err
	}
	return append(dst, body...), built, nil
}

// finishParts is finish returning the body (encrypted, if so) apart.
func (b *Builder) finishParts(dst, body []byte, uncompressed, ordinal int) (_, _ []byte, _ Built, _ error) {
	if b.Encryptor != nil {
		kind := ModuleDataPage
		if b.hdr.Type == meta.DictionaryPage {
			kind = ModuleDictionaryPage
		}
		sealed, err := b.Encryptor.Encrypt(b.sealed[:0], body, Module{Kind: kind, Page: ordinal})
		if err != nil {
			return dst, nil, Built{}, fmt.Errorf("page: encrypting the page: %w", err)
		}
		b.sealed, body = sealed, sealed
	}
	if len(body) > math.MaxInt32 || uncompressed > math.MaxInt32 {
		return dst, nil, Built{}, fmt.Errorf("page: a body of %d bytes (%d uncompressed) exceeds 2 GiB", len(body), uncompressed)
	}
	b.hdr.UncompressedPageSize = int32(uncompressed)
	b.hdr.CompressedPageSize = int32(len(body))
	if b.CRC {
		b.hdr.CRC = meta.Some(int32(crc32.ChecksumIEEE(body)))
	}
	start := len(dst)
	if b.Encryptor != nil {
		kind := ModuleDataPageHeader
		if b.hdr.Type == meta.DictionaryPage {
			kind = ModuleDictionaryPageHeader
		}
		b.hdrBuf = b.hdr.AppendThrift(b.hdrBuf[:0])
		var err error
		if dst, err = b.Encryptor.Encrypt(dst, b.hdrBuf, Module{Kind: kind, Page: ordinal}); err != nil {
			return dst[:start], nil, Built{}, fmt.Errorf("page: encrypting the page header: %w", err)
		}
	} else {
		dst = b.hdr.AppendThrift(dst)
	}
	h := len(dst) - start
	return dst, body, Built{HeaderSize: h, CompressedSize: len(body), UncompressedSize: uncompressed}, nil
}
