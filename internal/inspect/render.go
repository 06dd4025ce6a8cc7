package inspect

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pqgen/pqgen/runtime"
)

// Options select the output of Run.
type Options struct {
	// JSON prints the report as JSON instead of text.
	JSON bool
	// Reader options for opening the file (limits, later keys).
	Reader []runtime.ReaderOption
	// Scan reads every page of every column (and rebuilds every
	// Variant) to find the deviations that only the data shows; the
	// footer's are found without it.
	Scan bool
}

// Run inspects the file at path and prints the report to w. With
// o.Scan, a column that cannot be read fails Run after the report is
// printed.
func Run(w io.Writer, path string, o Options) error {
	f, fh, err := runtime.OpenPath(path, o.Reader...)
	if err != nil {
		return err
	}
	defer fh.Close()
	r := Build(path, f)
	var scanErr error
	if o.Scan {
		scanErr = Scan(f)
		r.addDeviations(f)
		r.Scanned = scanErr == nil
	}
	if o.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else if err := r.WriteText(w); err != nil {
		return err
	}
	return scanErr
}

// WriteText prints the report in its text form.
func (r *Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	p.f("file: %s (%d bytes, footer %d bytes)\n", r.File, r.Size, r.FooterBytes)
	if r.CreatedBy != "" {
		p.f("created by: %s\n", r.CreatedBy)
	}
	p.f("format version: %d\n", r.Version)
	p.f("rows: %d in %d row group%s\n", r.NumRows, len(r.RowGroups), plural(len(r.RowGroups)))
	if e := r.Encryption; e != nil {
		p.f("encryption: %s, %s footer", e.Algorithm, e.FooterMode)
		if e.AADPrefix != "" {
			p.f(", AAD prefix %q", e.AADPrefix)
		}
		if e.SupplyAADPrefix {
			p.f(", AAD prefix must be supplied")
		}
		if e.SigningKeyMeta != "" {
			p.f(", footer signing key metadata %q", e.SigningKeyMeta)
		}
		if e.FooterKeyMeta != "" {
			p.f(", footer key metadata %q", e.FooterKeyMeta)
		}
		if e.SignatureVerified {
			p.f(", signature verified")
		}
		p.f("\n")
	}
	p.f("schema:\n")
	for _, line := range strings.Split(strings.TrimRight(r.Schema, "\n"), "\n") {
		p.f("  %s\n", line)
	}
	p.f("leaf columns:\n")
	for i, c := range r.Columns {
		p.f("  %d %s: %s", i, c.Path, c.Type)
		if c.Logical != "" {
			p.f(" (%s)", c.Logical)
		}
		p.f(", %s, max def %d, max rep %d, order %s", c.Repetition, c.MaxDef, c.MaxRep, c.Order)
		if c.FileField != "" {
			p.f("; %s", c.FileField)
		}
		p.f("\n")
	}
	if len(r.FileGroups) > 0 {
		p.f("FILE references (preview):\n")
		for _, g := range r.FileGroups {
			p.f("  %s: fields %s; resolves to %s", g.Path, strings.Join(g.Fields, ", "), strings.Join(g.Resolves, ", "))
			if g.Problem != "" {
				p.f("; %s", g.Problem)
			}
			p.f("\n")
		}
	}
	writeKV(p, "  ", "key-value metadata", r.KeyValue)
	for _, rg := range r.RowGroups {
		p.f("row group %d: %d rows, %d bytes", rg.Index, rg.NumRows, rg.TotalByteSize)
		if rg.TotalCompressedSize != nil {
			p.f(" (%d compressed)", *rg.TotalCompressedSize)
		}
		if rg.FileOffset != nil {
			p.f(", at offset %d", *rg.FileOffset)
		}
		if rg.Ordinal != nil {
			p.f(", ordinal %d", *rg.Ordinal)
		}
		p.f("\n")
		if len(rg.SortingColumns) > 0 {
			p.f("  sorted by: %s\n", strings.Join(rg.SortingColumns, ", "))
		}
		for _, c := range rg.Columns {
			writeChunk(p, &c)
		}
	}
	switch {
	case len(r.Deviations) > 0:
		p.f("deviations from the specification, read as their writers meant (a strict reader refuses them; docs/DEVIATIONS.md):\n")
		for _, d := range r.Deviations {
			p.f("  note: %s\n", d.Text)
		}
		if !r.Scanned {
			p.f("  (footer only; --scan reads the pages too)\n")
		}
	case r.Scanned:
		p.f("deviations from the specification: none (pages scanned)\n")
	}
	return p.err
}

func writeChunk(p *printer, c *ColumnChunk) {
	p.f("  column %s (%s)", c.Path, c.Type)
	if c.Encrypted != "" {
		p.f(": encrypted %s", c.Encrypted)
	}
	p.f("\n")
	if c.FilePath != "" {
		p.f("    in file %s\n", c.FilePath)
	}
	if c.Codec == "" {
		return
	}
	p.f("    %s, %d values, %d bytes compressed, %d uncompressed\n", c.Codec, c.NumValues, c.CompressedSize, c.UncompressedSize)
	p.f("    encodings: %s\n", strings.Join(c.Encodings, " "))
	if len(c.EncodingStats) > 0 {
		p.f("    pages: %s\n", strings.Join(c.EncodingStats, ", "))
	}
	p.f("    data page at %d", c.DataPageOffset)
	if c.DictionaryPageOffset != nil {
		p.f(", dictionary page at %d", *c.DictionaryPageOffset)
	}
	switch {
	case c.FirstPageCRC != nil && *c.FirstPageCRC:
		p.f(", CRC on first page")
	case c.FirstPageCRC != nil:
		p.f(", no CRC on first page")
	case c.FirstPageNote != "":
		p.f(", %s", c.FirstPageNote)
	}
	p.f("\n")
	if s := c.Statistics; s != nil {
		p.f("    statistics:")
		if s.NullCount != nil {
			p.f(" nulls %d", *s.NullCount)
		}
		if s.DistinctCount != nil {
			p.f(", distinct %d", *s.DistinctCount)
		}
		if s.NanCount != nil {
			p.f(", NaNs %d", *s.NanCount)
		}
		if s.MinRaw != "" || s.MaxRaw != "" {
			p.f(", min %s%s, max %s%s (order %s)", s.Min, inexact(s.MinExact), s.Max, inexact(s.MaxExact), s.Order)
		}
		if s.Note != "" {
			p.f("; %s", s.Note)
		}
		p.f("\n")
	}
	if ss := c.SizeStatistics; ss != nil {
		p.f("    size statistics:")
		if ss.UnencodedByteArrayDataBytes != nil {
			p.f(" unencoded byte-array bytes %d", *ss.UnencodedByteArrayDataBytes)
		}
		if ss.RepetitionLevelHistogram != nil {
			p.f(" repetition levels %v", ss.RepetitionLevelHistogram)
		}
		if ss.DefinitionLevelHistogram != nil {
			p.f(" definition levels %v", ss.DefinitionLevelHistogram)
		}
		if ss.UnencodedByteArrayDataBytes == nil && ss.RepetitionLevelHistogram == nil && ss.DefinitionLevelHistogram == nil {
			// A required, unrepeated column of numbers has nothing to
			// record; writers (pqgen among them) may still write the
			// struct.
			p.f(" empty")
		}
		p.f("\n")
	}
	if g := c.Geospatial; g != nil {
		wraps := ""
		if g.Wraps {
			wraps = " (wraps the antimeridian: x >= xmin or x <= xmax)"
		}
		p.f("    geospatial: bbox %v%s, types %v\n", g.BBox, wraps, g.Types)
	}
	if a := c.ALP; a != nil {
		p.f("    ALP (preview): %d pages, %d vectors of %v values, %d values, %d exceptions, bit widths %d..%d, %s",
			a.Pages, a.Vectors, a.VectorSizes, a.Values, a.Exceptions, a.MinBitWidth, a.MaxBitWidth, strings.Join(a.Params, ", "))
		if a.Error != "" {
			p.f("; %s", a.Error)
		}
		p.f("\n")
	}
	var idx []string
	for _, l := range []struct {
		name string
		loc  *Location
	}{{"column index", c.ColumnIndex}, {"offset index", c.OffsetIndex}, {"bloom filter", c.BloomFilter}} {
		if l.loc == nil {
			continue
		}
		s := fmt.Sprintf("%s at %d", l.name, l.loc.Offset)
		if l.loc.Length != nil {
			s += fmt.Sprintf(" (%d bytes)", *l.loc.Length)
		}
		idx = append(idx, s)
	}
	if len(idx) > 0 {
		p.f("    %s\n", strings.Join(idx, ", "))
	}
	writeKV(p, "    ", "key-value metadata", c.KeyValue)
}

func inexact(b *bool) string {
	if b != nil && !*b {
		return " (truncated)"
	}
	return ""
}

func writeKV(p *printer, ind, title string, kvs []KeyValue) {
	if len(kvs) == 0 {
		return
	}
	p.f("%s:\n", strings.TrimSuffix(ind, "  ")+title)
	for _, kv := range kvs {
		if kv.Value == nil {
			p.f("%s%s (no value)\n", ind, kv.Key)
			continue
		}
		v := *kv.Value
		if len(v) > 200 {
			v = v[:200] + fmt.Sprintf("… (%d bytes)", len(*kv.Value))
		}
		p.f("%s%s = %s\n", ind, kv.Key, v)
	}
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
