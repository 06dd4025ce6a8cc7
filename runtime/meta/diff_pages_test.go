// Differential tests of the PageHeader, ColumnIndex and OffsetIndex codecs
// against apache/thrift's compact protocol on the page headers and page
// indexes of the parquet-testing corpus
// (https://parquet.apache.org/docs/file-format/metadata/).

package meta

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// diffStruct decodes one structure from data with ours (dec returns the
// bytes consumed and our re-encoding) and compares apache/thrift's generic
// reading of the original with its reading of our re-encoding.
func diffStruct(t *testing.T, what, name string, data []byte, dec func([]byte) (int, []byte, error)) bool {
	t.Helper()
	n, enc, err := dec(data)
	orig, dropped, widened, refErr := walkGenericWidened(data, name)
	if err != nil || refErr != nil {
		switch {
		case err != nil && refErr == nil && errors.Is(err, ErrMissingField) && strings.HasPrefix(what, "bad_data"):
			// The generic walk does not check requiredness; the
			// thrift-generated code rejects these too.
			t.Logf("%s: rejected (required field missing): %v", what, err)
		case err == nil || refErr == nil:
			t.Errorf("%s: ours: %v; apache/thrift: %v", what, err, refErr)
		}
		return false
	}
	if len(dropped) > 0 {
		t.Errorf("%s: unexpected dropped fields %v", what, dropped)
	}
	again, _, err := walkGeneric(enc, name)
	if err != nil {
		t.Errorf("%s: apache/thrift cannot read our encoding: %v", what, err)
		return false
	}
	if diff := cmp.Diff(orig, again, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("%s: re-encoding differs:\n%s", what, diff)
	}
	switch {
	case len(widened) > 0:
		// Read from another integer width, re-encoded in the field's own.
		t.Logf("%s: integer fields of another width: %v", what, widened)
	case !bytes.Equal(enc, data[:n]):
		t.Errorf("%s: re-encoding not byte-identical", what)
	}
	return true
}

func TestDifferentialPageHeadersAndIndexes(t *testing.T) {
	dir := corpusDir(t)
	var headers, indexes int
	for _, path := range corpusFiles(t, dir) {
		data, magic, err := footer(path)
		if err != nil || magic != "PAR1" {
			continue
		}
		fm, _, err := DecodeFileMetaData(data, nil)
		if err != nil || fm.EncryptionAlgorithm != nil {
			continue
		}
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		for _, rg := range fm.RowGroups {
			for _, cc := range rg.Columns {
				cm := cc.MetaData
				if cm == nil || cc.FilePath.Set {
					continue
				}
				off := cm.DataPageOffset
				if v, ok := cm.DictionaryPageOffset.Get(); ok && v > 0 && v < off {
					off = v
				}
				what := rel + ": page header of " + cm.PathInSchema[len(cm.PathInSchema)-1]
				if off > 0 && off < int64(len(file)) {
					var h PageHeader
					if diffStruct(t, what, "PageHeader", file[off:], func(b []byte) (int, []byte, error) {
						n, err := h.DecodeThrift(b, nil)
						return n, h.AppendThrift(nil), err
					}) {
						headers++
					}
				}
				if o, ok := cc.ColumnIndexOffset.Get(); ok && cc.ColumnIndexLength.Set && o+int64(cc.ColumnIndexLength.Val) <= int64(len(file)) {
					b := file[o : o+int64(cc.ColumnIndexLength.Val)]
					if diffStruct(t, rel+": column index", "ColumnIndex", b, func(b []byte) (int, []byte, error) {
						x, n, err := DecodeColumnIndex(b, nil)
						if err != nil {
							return n, nil, err
						}
						return n, x.AppendThrift(nil), nil
					}) {
						indexes++
					}
				}
				if o, ok := cc.OffsetIndexOffset.Get(); ok && cc.OffsetIndexLength.Set && o+int64(cc.OffsetIndexLength.Val) <= int64(len(file)) {
					b := file[o : o+int64(cc.OffsetIndexLength.Val)]
					if diffStruct(t, rel+": offset index", "OffsetIndex", b, func(b []byte) (int, []byte, error) {
						x, n, err := DecodeOffsetIndex(b, nil)
						if err != nil {
							return n, nil, err
						}
						return n, x.AppendThrift(nil), nil
					}) {
						indexes++
					}
				}
			}
		}
	}
	t.Logf("compared %d first page headers and %d page indexes", headers, indexes)
	if headers < 200 || indexes < 20 {
		t.Errorf("too few structures compared: %d page headers, %d indexes", headers, indexes)
	}
}
