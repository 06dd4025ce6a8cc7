// Fuzz targets of the compact-protocol decoders
// (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md),
// seeded with the footers of the parquet-testing corpus and hand-built
// page headers (https://parquet.apache.org/docs/file-format/metadata/).

package meta

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pqgen/pqgen/internal/corpus"
)

// fuzzLimits keeps fuzzing from spending its time on legal but huge inputs.
var fuzzLimits = &Limits{MaxStringLen: 1 << 20, MaxContainerLen: 1 << 16, MaxDepth: 64}

func seedFooters(f *testing.F) {
	dir, ok := corpus.Lookup()
	if !ok {
		f.Logf("!!! corpus not found at %s: fuzzing with hand-built seeds only", dir)
		return
	}
	for _, p := range corpusFiles(f, dir) {
		if b, _, err := footer(p); err == nil {
			f.Add(b)
		}
	}
}

// checkDecodeError checks the error contract: a *DecodeError wrapping one
// sentinel.
func checkDecodeError(t *testing.T, err error) {
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error is not a *DecodeError: %v", err)
	}
	for _, s := range []error{ErrTruncated, ErrLimit, ErrDepth, ErrMissingField, ErrInvalid} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error wraps no sentinel: %v", err)
}

func FuzzDecodeFileMetaData(f *testing.F) {
	seedFooters(f)
	f.Add(wideFooter(3, 2).AppendThrift(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, n, err := DecodeFileMetaData(data, fuzzLimits)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if n > len(data) {
			t.Fatalf("consumed %d of %d bytes", n, len(data))
		}
		// Re-encoding is stable: decode(encode(x)) encodes the same.
		enc := x.AppendThrift(nil)
		y, m, err := DecodeFileMetaData(enc, fuzzLimits)
		if err != nil || m != len(enc) {
			t.Fatalf("re-decode: %d/%d %v", m, len(enc), err)
		}
		if !bytes.Equal(y.AppendThrift(nil), enc) {
			t.Fatal("encoding not stable")
		}
	})
}

func FuzzDecodePageHeader(f *testing.F) {
	f.Add((&PageHeader{Type: DataPageV2, UncompressedPageSize: 100, CompressedPageSize: 60, CRC: Some[int32](7),
		DataPageHeaderV2: &DataPageHeaderV2{NumValues: 10, NumNulls: 1, NumRows: 10, Encoding: EncodingRLEDictionary,
			DefinitionLevelsByteLength: 3, IsCompressed: Some(false),
			Statistics: &Statistics{NullCount: Some[int64](1), MaxValue: []byte("b"), MinValue: []byte("a"), IsMaxValueExact: Some(true)}}}).AppendThrift(nil))
	f.Add((&PageHeader{Type: DictionaryPage, DictionaryPageHeader: &DictionaryPageHeader{NumValues: 3, IsSorted: Some(true)}}).AppendThrift(nil))
	f.Add((&PageHeader{Type: DataPage, DataPageHeader: &DataPageHeader{NumValues: 3, Statistics: &Statistics{Max: []byte{1}}}}).AppendThrift(nil))
	f.Add((&PageHeader{Type: IndexPage, IndexPageHeader: &IndexPageHeader{}}).AppendThrift(nil))
	f.Add(unknownOfEveryType)
	var reused PageHeader
	f.Fuzz(func(t *testing.T, data []byte) {
		x, n, err := DecodePageHeader(data, fuzzLimits)
		// Decoding into a reused header gives the same result.
		n2, err2 := reused.DecodeThrift(data, fuzzLimits)
		if (err == nil) != (err2 == nil) || n != n2 {
			t.Fatalf("reused decode differs: %v/%v %d/%d", err, err2, n, n2)
		}
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		enc := x.AppendThrift(nil)
		if !bytes.Equal(reused.AppendThrift(nil), enc) {
			t.Fatal("reused decode encodes differently")
		}
		y, m, err := DecodePageHeader(enc, fuzzLimits)
		if err != nil || m != len(enc) || !bytes.Equal(y.AppendThrift(nil), enc) {
			t.Fatalf("re-decode: %d/%d %v", m, len(enc), err)
		}
	})
}
