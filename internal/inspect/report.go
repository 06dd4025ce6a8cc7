package inspect

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pqgen/pqgen/runtime"
	"github.com/pqgen/pqgen/runtime/geo"
	"github.com/pqgen/pqgen/runtime/meta"
	"github.com/pqgen/pqgen/runtime/schema"
)

// Report is everything inspect shows about one file.
type Report struct {
	File        string       `json:"file"`
	Size        int64        `json:"size"`
	Version     int32        `json:"version"`
	CreatedBy   string       `json:"created_by,omitempty"`
	NumRows     int64        `json:"num_rows"`
	FooterBytes int64        `json:"footer_bytes"`
	Schema      string       `json:"schema"`
	KeyValue    []KeyValue   `json:"key_value_metadata,omitempty"`
	Encryption  *Encryption  `json:"encryption,omitempty"`
	RowGroups   []RowGroup   `json:"row_groups"`
	Columns     []LeafColumn `json:"columns"`
	// Deviations are the departures from the specification met while
	// reading the footer (and, with Options.Scan, every page and
	// Variant), accepted as runtime.File.Deviations records them.
	Deviations []Deviation `json:"deviations,omitempty"`
	// Scanned: the pages were read (Options.Scan), so Deviations covers
	// the data too.
	Scanned bool `json:"scanned,omitempty"`
	// FileGroups are the FILE-annotated groups of the schema.
	FileGroups []FileGroup `json:"file_references,omitempty"`
}

// Deviation is one tolerated deviation (runtime.Deviation); Column is
// empty and RowGroup and Page are -1 where they do not apply.
type Deviation struct {
	Kind     string `json:"kind"`
	Writer   string `json:"writer"`
	What     string `json:"what"`
	Column   string `json:"column,omitempty"`
	RowGroup int    `json:"row_group"`
	Page     int    `json:"page"`
	Text     string `json:"text"`
}

// FileGroup describes a FILE-annotated group (logical type 19, a draft of
// the format's development head): a column of references to bytes
// inline, in a range of this file or in an external file.
type FileGroup struct {
	Path string `json:"path"`
	// Fields are the FILE fields the group defines.
	Fields []string `json:"fields"`
	// Resolves lists what its values can refer to, given those fields.
	Resolves []string `json:"resolves_to"`
	// Problem tells how the group breaks the FILE type's rules.
	Problem string `json:"problem,omitempty"`
}

// LeafColumn describes one leaf column of the schema.
type LeafColumn struct {
	Path       string `json:"path"`
	Type       string `json:"type"`
	Logical    string `json:"logical,omitempty"`
	Repetition string `json:"repetition"`
	MaxDef     uint8  `json:"max_definition_level"`
	MaxRep     uint8  `json:"max_repetition_level"`
	Order      string `json:"column_order"`
	// FileField names the leaf's role in a FILE reference ("uri of the
	// FILE reference attachment").
	FileField string `json:"file_field,omitempty"`
}

// KeyValue is one key-value metadata entry; Value is nil when unset.
type KeyValue struct {
	Key   string  `json:"key"`
	Value *string `json:"value"`
}

// Encryption describes an encrypted file: with a plaintext footer, or
// with an encrypted footer opened with its key.
type Encryption struct {
	Algorithm       string `json:"algorithm"`
	FooterMode      string `json:"footer_mode"`
	AADPrefix       string `json:"aad_prefix,omitempty"`
	SupplyAADPrefix bool   `json:"supply_aad_prefix,omitempty"`
	SigningKeyMeta  string `json:"footer_signing_key_metadata,omitempty"`
	FooterKeyMeta   string `json:"footer_key_metadata,omitempty"`
	// SignatureVerified: the plaintext footer's signature was checked
	// with the footer key.
	SignatureVerified bool `json:"signature_verified,omitempty"`
}

// RowGroup describes one row group.
type RowGroup struct {
	Index               int           `json:"index"`
	NumRows             int64         `json:"num_rows"`
	TotalByteSize       int64         `json:"total_byte_size"`
	TotalCompressedSize *int64        `json:"total_compressed_size,omitempty"`
	FileOffset          *int64        `json:"file_offset,omitempty"`
	Ordinal             *int16        `json:"ordinal,omitempty"`
	SortingColumns      []string      `json:"sorting_columns,omitempty"`
	Columns             []ColumnChunk `json:"columns"`
}

// ColumnChunk describes one column chunk.
type ColumnChunk struct {
	Path                 string      `json:"path"`
	Type                 string      `json:"type"`
	Codec                string      `json:"codec,omitempty"`
	Encodings            []string    `json:"encodings,omitempty"`
	EncodingStats        []string    `json:"encoding_stats,omitempty"`
	NumValues            int64       `json:"num_values"`
	CompressedSize       int64       `json:"compressed_size"`
	UncompressedSize     int64       `json:"uncompressed_size"`
	DataPageOffset       int64       `json:"data_page_offset"`
	DictionaryPageOffset *int64      `json:"dictionary_page_offset,omitempty"`
	FilePath             string      `json:"file_path,omitempty"`
	Statistics           *Statistics `json:"statistics,omitempty"`
	SizeStatistics       *SizeStats  `json:"size_statistics,omitempty"`
	Geospatial           *Geo        `json:"geospatial_statistics,omitempty"`
	ALP                  *ALPPages   `json:"alp,omitempty"`
	ColumnIndex          *Location   `json:"column_index,omitempty"`
	OffsetIndex          *Location   `json:"offset_index,omitempty"`
	BloomFilter          *Location   `json:"bloom_filter,omitempty"`
	FirstPageCRC         *bool       `json:"first_page_crc,omitempty"`
	FirstPageNote        string      `json:"first_page_note,omitempty"`
	Encrypted            string      `json:"encrypted,omitempty"`
	KeyValue             []KeyValue  `json:"key_value_metadata,omitempty"`
}

// Location is where an index or bloom filter lies; Length is nil when the
// footer does not say.
type Location struct {
	Offset int64  `json:"offset"`
	Length *int64 `json:"length,omitempty"`
}

// Statistics are a chunk's statistics, bounds decoded per type. Order says
// which ordering the bounds follow ("TYPE_ORDER", "IEEE_754_TOTAL_ORDER",
// or "deprecated signed" for the legacy min/max fields).
type Statistics struct {
	NullCount     *int64 `json:"null_count,omitempty"`
	DistinctCount *int64 `json:"distinct_count,omitempty"`
	NanCount      *int64 `json:"nan_count,omitempty"`
	Min           string `json:"min,omitempty"`
	Max           string `json:"max,omitempty"`
	MinRaw        string `json:"min_raw,omitempty"`
	MaxRaw        string `json:"max_raw,omitempty"`
	MinExact      *bool  `json:"min_exact,omitempty"`
	MaxExact      *bool  `json:"max_exact,omitempty"`
	Order         string `json:"order,omitempty"`
	Note          string `json:"note,omitempty"`
}

// SizeStats are a chunk's SizeStatistics.
type SizeStats struct {
	UnencodedByteArrayDataBytes *int64  `json:"unencoded_byte_array_data_bytes,omitempty"`
	RepetitionLevelHistogram    []int64 `json:"repetition_level_histogram,omitempty"`
	DefinitionLevelHistogram    []int64 `json:"definition_level_histogram,omitempty"`
}

// Geo are a chunk's GeospatialStatistics.
type Geo struct {
	BBox []float64 `json:"bbox,omitempty"` // xmin, xmax, ymin, ymax[, zmin, zmax[, mmin, mmax]]
	// Wraps: xmin > xmax, the box crosses the antimeridian (x >= xmin or
	// x <= xmax).
	Wraps bool    `json:"wraps_antimeridian,omitempty"`
	Types []int32 `json:"geospatial_types,omitempty"`
}

// Build makes the report of an open file. It reads nothing but the first
// page header of each unencrypted chunk (to tell whether pages carry CRCs)
// and the pages of unencrypted chunks that use ALP (to describe them); a
// header or page that cannot be read is noted, not fatal.
func Build(name string, f *runtime.File) *Report {
	md := f.Meta
	r := &Report{File: name, Size: f.Size, Version: md.Version, NumRows: md.NumRows,
		FooterBytes: f.FooterLength, Schema: f.Schema.String(), CreatedBy: md.CreatedBy.Val}
	r.KeyValue = keyValues(md.KeyValueMetadata)
	// The algorithm: from the file's decryption state when it was opened
	// with keys (the only source for an encrypted footer), else from the
	// plaintext footer.
	ea, e := md.EncryptionAlgorithm, f.Encryption
	if e != nil {
		ea = &e.Algorithm
	}
	if ea != nil {
		r.Encryption = &Encryption{Algorithm: ea.Kind.String(), FooterMode: "plaintext (signed)",
			AADPrefix: string(ea.Params.AADPrefix), SupplyAADPrefix: ea.Params.SupplyAADPrefix.Val,
			SigningKeyMeta: string(md.FooterSigningKeyMetadata)}
		switch {
		case e != nil && e.EncryptedFooter:
			r.Encryption.FooterMode = "encrypted"
			r.Encryption.FooterKeyMeta = printable(e.FooterKeyMetadata)
		case e != nil:
			r.Encryption.SignatureVerified = e.FooterKey
		}
	}
	for _, l := range f.Schema.Leaves {
		lc := LeafColumn{Path: l.PathString(), Type: schema.TypeName(l.Type, l.TypeLength),
			Logical: schema.Annotation(l), Repetition: strings.ToLower(l.Repetition.String()),
			MaxDef: l.MaxDef, MaxRep: l.MaxRep, Order: orderName(f.ColumnOrder(l.Column))}
		if p := l.Parent; p != nil && p.Group && p.Logical.Kind == meta.LogicalFile {
			lc.FileField = l.Name + " of the FILE reference " + p.PathString()
		}
		r.Columns = append(r.Columns, lc)
	}
	r.addDeviations(f)
	r.FileGroups = fileGroups(f.Schema.Root)
	for i := range md.RowGroups {
		rg := &md.RowGroups[i]
		out := RowGroup{Index: i, NumRows: rg.NumRows, TotalByteSize: rg.TotalByteSize,
			TotalCompressedSize: optPtr(rg.TotalCompressedSize), FileOffset: optPtr(rg.FileOffset), Ordinal: optPtr(rg.Ordinal)}
		for _, sc := range rg.SortingColumns {
			name := fmt.Sprintf("column %d", sc.ColumnIdx)
			if sc.ColumnIdx >= 0 && int(sc.ColumnIdx) < len(f.Schema.Leaves) {
				name = f.Schema.Leaves[sc.ColumnIdx].PathString()
			}
			dir, nulls := "ASC", "NULLS LAST"
			if sc.Descending {
				dir = "DESC"
			}
			if sc.NullsFirst {
				nulls = "NULLS FIRST"
			}
			out.SortingColumns = append(out.SortingColumns, name+" "+dir+" "+nulls)
		}
		for j := range rg.Columns {
			out.Columns = append(out.Columns, chunk(f, i, f.Schema.Leaves[j], &rg.Columns[j]))
		}
		r.RowGroups = append(r.RowGroups, out)
	}
	return r
}

// addDeviations sets r.Deviations to those f has recorded so far.
func (r *Report) addDeviations(f *runtime.File) {
	r.Deviations = nil
	for _, d := range f.Deviations() {
		r.Deviations = append(r.Deviations, Deviation{Kind: string(d.Kind), Writer: d.Writer, What: d.What,
			Column: d.Column, RowGroup: d.RowGroup, Page: d.Page, Text: d.String()})
	}
}

func orderName(k meta.ColumnOrderKind) string {
	if k == meta.OrderUnknown {
		return "undefined"
	}
	return k.String()
}

func optPtr[T any](o meta.Opt[T]) *T {
	if !o.Set {
		return nil
	}
	v := o.Val
	return &v
}

func keyValues(kvs []meta.KeyValue) []KeyValue {
	var out []KeyValue
	for _, kv := range kvs {
		out = append(out, KeyValue{Key: kv.Key, Value: optPtr(kv.Value)})
	}
	return out
}

func chunk(f *runtime.File, rg int, leaf *schema.Node, cc *meta.ColumnChunk) ColumnChunk {
	out := ColumnChunk{Path: leaf.PathString(), Type: schema.TypeName(leaf.Type, leaf.TypeLength), FilePath: cc.FilePath.Val}
	if cm := cc.CryptoMetadata; cm != nil {
		switch cm.Kind {
		case meta.CryptoFooterKey:
			out.Encrypted = "with the footer key"
		case meta.CryptoColumnKey:
			out.Encrypted = "with a column key"
			if km := cm.ColumnKey.KeyMetadata; len(km) > 0 {
				out.Encrypted += fmt.Sprintf(" (key metadata %q)", printable(km))
			}
		default:
			out.Encrypted = "with an unknown scheme"
		}
		if e := f.Encryption; e != nil && leaf.Column < len(e.Columns) && e.Columns[leaf.Column].Readable && cm.Kind == meta.CryptoColumnKey {
			out.Encrypted += ", key given: metadata decrypted"
		}
	}
	if cc.ColumnIndexOffset.Set {
		out.ColumnIndex = &Location{Offset: cc.ColumnIndexOffset.Val, Length: widen(cc.ColumnIndexLength)}
	}
	if cc.OffsetIndexOffset.Set {
		out.OffsetIndex = &Location{Offset: cc.OffsetIndexOffset.Val, Length: widen(cc.OffsetIndexLength)}
	}
	md := cc.MetaData
	if md == nil {
		if out.Encrypted == "" {
			out.Encrypted = "metadata missing"
		}
		return out
	}
	out.Codec = md.Codec.String()
	for _, e := range md.Encodings {
		out.Encodings = append(out.Encodings, e.String())
	}
	for _, es := range md.EncodingStats {
		out.EncodingStats = append(out.EncodingStats, fmt.Sprintf("%s %s ×%d", es.PageType, es.Encoding, es.Count))
	}
	out.NumValues = md.NumValues
	out.CompressedSize, out.UncompressedSize = md.TotalCompressedSize, md.TotalUncompressedSize
	out.DataPageOffset = md.DataPageOffset
	out.DictionaryPageOffset = optPtr(md.DictionaryPageOffset)
	out.KeyValue = keyValues(md.KeyValueMetadata)
	if md.BloomFilterOffset.Set {
		out.BloomFilter = &Location{Offset: md.BloomFilterOffset.Val, Length: widen(md.BloomFilterLength)}
	}
	if md.Type != leaf.Type {
		out.Type += fmt.Sprintf(" (chunk says %s)", md.Type)
	}
	if s := md.Statistics; s != nil {
		out.Statistics = stats(f, leaf, s)
		if ok, why := f.StatisticsTrusted(rg, leaf.Column); !ok && out.Statistics.Note == "" && (out.Statistics.Min != "" || out.Statistics.Max != "") {
			out.Statistics.Note = "bounds not to be trusted: " + why
		}
	}
	if ss := md.SizeStatistics; ss != nil {
		out.SizeStatistics = &SizeStats{UnencodedByteArrayDataBytes: optPtr(ss.UnencodedByteArrayDataBytes),
			RepetitionLevelHistogram: ss.RepetitionLevelHistogram, DefinitionLevelHistogram: ss.DefinitionLevelHistogram}
	}
	if g := md.GeospatialStatistics; g != nil {
		out.Geospatial = &Geo{Types: g.GeospatialTypes}
		if bb := g.BBox; bb != nil {
			out.Geospatial.BBox = []float64{bb.Xmin, bb.Xmax, bb.Ymin, bb.Ymax}
			out.Geospatial.Wraps = geo.BoxWraps(bb)
			if bb.Zmin.Set && bb.Zmax.Set {
				out.Geospatial.BBox = append(out.Geospatial.BBox, bb.Zmin.Val, bb.Zmax.Val)
				if bb.Mmin.Set && bb.Mmax.Set {
					out.Geospatial.BBox = append(out.Geospatial.BBox, bb.Mmin.Val, bb.Mmax.Val)
				}
			}
		}
	}
	if cc.CryptoMetadata == nil && cc.FilePath.Val == "" {
		crc, note := firstPageCRC(f, md)
		out.FirstPageCRC, out.FirstPageNote = crc, note
		out.ALP = alpPages(f, leaf, md)
	}
	return out
}

func widen(o meta.Opt[int32]) *int64 {
	if !o.Set {
		return nil
	}
	v := int64(o.Val)
	return &v
}

func printable(b []byte) string {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return "0x" + hex.EncodeToString(b)
		}
	}
	return string(b)
}

// stats decodes a chunk's statistics. Bounds in min_value/max_value follow
// the column order; the deprecated min/max fields are signed-order bounds
// shown only when the new ones are absent. Types without a defined order
// (INTERVAL, GEOMETRY, GEOGRAPHY, INT96 without INT96 order) keep their
// counts but their bounds are noted as not meaningful.
func stats(f *runtime.File, leaf *schema.Node, s *meta.Statistics) *Statistics {
	out := &Statistics{NullCount: optPtr(s.NullCount), DistinctCount: optPtr(s.DistinctCount),
		NanCount: optPtr(s.NanCount), MinExact: optPtr(s.IsMinValueExact), MaxExact: optPtr(s.IsMaxValueExact)}
	min, max := s.MinValue, s.MaxValue
	order := f.ColumnOrder(leaf.Column)
	out.Order = orderName(order)
	if min == nil && max == nil && (s.Min != nil || s.Max != nil) {
		min, max = s.Min, s.Max
		out.Order = "deprecated signed"
	}
	if min == nil && max == nil {
		return out
	}
	out.MinRaw, out.MaxRaw = rawHex(min), rawHex(max)
	if min != nil {
		out.Min = FormatValue(leaf, min)
	}
	if max != nil {
		out.Max = FormatValue(leaf, max)
	}
	switch {
	case leaf.Converted.Set && leaf.Converted.Val == meta.ConvertedInterval,
		leaf.Logical.Kind == meta.LogicalGeometry, leaf.Logical.Kind == meta.LogicalGeography:
		out.Note = "this type has no defined order: bounds are not meaningful"
	case leaf.Type == meta.Int96 && order != meta.Int96TimestampOrder:
		out.Note = "INT96 bounds are meaningful only with INT96_TIMESTAMP_ORDER"
	}
	return out
}

func rawHex(b []byte) string {
	if b == nil {
		return ""
	}
	return formatHex(b)
}

// maxHeaderProbe bounds how much inspect reads to decode a first page header.
const maxHeaderProbe = 1 << 16

func firstPageCRC(f *runtime.File, md *meta.ColumnMetaData) (*bool, string) {
	off := md.DataPageOffset
	if md.DictionaryPageOffset.Set && md.DictionaryPageOffset.Val > 0 && md.DictionaryPageOffset.Val < off {
		off = md.DictionaryPageOffset.Val
	}
	if md.TotalCompressedSize == 0 && md.NumValues == 0 {
		return nil, "no pages" // arrow-go's chunks of empty record batches
	}
	if off < 4 || off >= f.FooterOffset {
		return nil, fmt.Sprintf("first page offset %d is outside the data region", off)
	}
	n := min(int64(maxHeaderProbe), f.FooterOffset-off)
	buf := make([]byte, n)
	if _, err := f.ReaderAt().ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return nil, "reading the first page header: " + err.Error()
	}
	lim := f.MetaLimits()
	ph, _, err := meta.DecodePageHeader(buf, &lim)
	if err != nil {
		return nil, "first page header unreadable: " + err.Error()
	}
	has := ph.CRC.Set
	return &has, ""
}

// fileGroups describes the FILE-annotated groups under n, depth first.
func fileGroups(n *schema.Node) []FileGroup {
	var out []FileGroup
	if n.Group && n.Logical.Kind == meta.LogicalFile {
		g := FileGroup{Path: n.PathString()}
		has := map[string]bool{}
		for _, c := range n.Children {
			g.Fields = append(g.Fields, c.Name)
			has[c.Name] = true
		}
		if has["inline"] {
			g.Resolves = append(g.Resolves, "inline bytes")
		}
		if has["offset"] && has["size"] {
			g.Resolves = append(g.Resolves, "a range of this file")
		}
		if has["uri"] {
			ext := "an external URI (whole file)"
			switch {
			case has["offset"] && has["size"]:
				ext = "an external URI (whole file, or a range with offset and size)"
			case has["size"]:
				ext = "an external URI (whole file, or its first size bytes)"
			}
			g.Resolves = append(g.Resolves, ext)
		}
		if len(g.Resolves) == 0 {
			g.Resolves = []string{"nothing: no value of this group can resolve"}
		}
		if err := runtime.CheckFileGroup(n); err != nil {
			g.Problem = err.Error()
		}
		out = append(out, g)
	}
	for _, c := range n.Children {
		out = append(out, fileGroups(c)...)
	}
	return out
}
